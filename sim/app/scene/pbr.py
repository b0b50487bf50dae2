"""The quality preset's render pipeline (simplepbr), started on a ShowBase and stopped
again: switching Graphics back to Fast must draw exactly what a fresh window draws.

simplepbr has no way out of its own. Started, it renders the scene into a float buffer
that a full-window quad tone-maps and encodes to sRGB (a FilterManager), puts its PBR
shader, a fallback material and antialiasing on ``render``, and runs a task each frame.
Left on under the fast preset, fixed-function colours go through that encoding as if
they were linear light: a pale cloth and wood (issue 28, friction 3). :func:`stop_pbr`
undoes each of those; one pipeline at most lives on a ShowBase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from panda3d.core import Texture

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

# simplepbr's per-frame task (its name in simplepbr's Pipeline.__post_init__).
PBR_TASK = "simplepbr update"
# Software GL: no MSAA (it costs ~3x there).
SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swiftshader", "swrast")


def pbr_pipeline(base: ShowBase) -> Any:
    """The pipeline running on ``base``, or None."""
    return getattr(base, "poolsim_pbr_pipeline", None)


def start_pbr(base: ShowBase) -> Any:
    """simplepbr on ``base`` (the one already running, if any)."""
    import simplepbr

    pipeline = pbr_pipeline(base)
    if pipeline is not None:
        return pipeline
    renderer = base.win.getGsg().getDriverRenderer().lower()
    software = any(s in renderer for s in SOFTWARE_RENDERERS)
    power_2 = Texture.getTexturesPower2()  # simplepbr sets it for the whole process
    # More than one light with shadows crashes llvmpipe's shader compiler (Mesa 22/LLVM
    # 15), so one spot light plus ambient.
    pipeline = simplepbr.init(
        render_node=base.render,
        window=base.win,
        camera_node=base.cam,
        msaa_samples=0 if software else 4,
        max_lights=1,
        enable_shadows=True,
        exposure=0.9,
    )
    base.poolsim_pbr_pipeline = pipeline
    base.poolsim_pbr_power_2 = power_2
    return pipeline


def stop_pbr(base: ShowBase) -> None:
    """Take simplepbr off ``base``, if it is on: the scene drawn straight into the
    window again, ``render`` without its shader, material and antialiasing, its task
    gone. The lights it shadowed are the scene's to remove."""
    pipeline = pbr_pipeline(base)
    if pipeline is None:
        return
    base.taskMgr.remove(PBR_TASK)
    filters = pipeline._filtermgr
    filters.cleanup()  # its buffers gone, the window's clears and the camera restored
    filters.ignoreAll()  # it resized its buffers on each window event
    render = pipeline.render_node
    render.clearShader()  # the PBR shader and its inputs
    render.clearMaterial()
    render.clearAntialias()
    Texture.setTexturesPower2(base.poolsim_pbr_power_2)
    base.poolsim_pbr_pipeline = None
