"""The 3D table: a pool table built from the physics table, the balls, lights.

pooltool ships one 7-ft table model, and scaling it would distort the pockets, so the
table is built here from the physics geometry of whatever :class:`~sim.physics.table.TableSpec`
is played: the cloth follows the cushion nose lines (the linear segments and the rounded
jaw tips), the cushions rise from the cloth to the nose at exactly the segment's height,
the jaws run out to the rail line, and the pocket openings are pooltool's pocket circles
as the jaws frame them (cushions and rails cut at the circle). Rails, diamonds, the
pockets' liners, apron, legs and floor go around it. Units are metres in the physics
frame (x across, y along, the cloth at z = 0).

The balls are our own (``assets/balls``, made by ``assets/make_balls.py``): pooltool's
carry one small number each, which a ball turned away hides. Ours carry it twice, in a
disc a third of the ball's diameter (a real set's), and from high above (where a ball is
some twenty pixels wide) each ball shows its number on a label facing the camera.

This module holds :class:`TableScene`, which builds and draws all of it; the plan
geometry is :mod:`sim.app.scene.tablegeometry`, the Panda3D meshes and the light map
:mod:`sim.app.scene.meshes`, and fixed camera views for tests :mod:`sim.app.scene.camera`.

Two presets:

- ``"fast"``: fixed-function lighting, no shaders of our own; the pool of light from the
  lamps over the table is baked into a small light map (a texture stage of its own), the
  cloth's weave is a detail texture, each ball gets a soft contact shadow, and the
  pockets' liners carry their light in vertex colours. Meant for software OpenGL (about
  30 fps at 1280x800 on llvmpipe: ``poolsim bench --render``).
- ``"quality"``: simplepbr, one shadow-casting spot light over the table plus ambient
  (one light: more crash llvmpipe with shadows), MSAA only on a real GPU.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from panda3d.core import (
    AmbientLight,
    BitMask32,
    CardMaker,
    CollisionNode,
    CollisionSphere,
    DirectionalLight,
    Filename,
    Material,
    NodePath,
    Quat,
    SamplerState,
    Spotlight,
    Texture,
    TextureStage,
    TransparencyAttrib,
    Vec3,
    Vec4,
)

from sim.app.scene.meshes import (
    CLOTH_TILE,
    LINER_PROFILE,
    MeshBuilder,
    ball_sphere,
    box,
    lightmap,
    pocket_liner,
    vertical_wall,
)
from sim.app.scene.pbr import start_pbr, stop_pbr
from sim.app.scene.tablegeometry import (
    RAIL_BEVEL,
    RAIL_WIDTH,
    Rect,
    TableLayout,
    distance_along,
    line_normals,
)
from sim.paths import assets_dir
from sim.physics.table import TableSpec

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

    from sim.physics.timeline import BallStates

Quality = Literal["fast", "quality"]
ClothColour = Literal["blue", "green"]


BALL_IDS: tuple[str, ...] = ("cue", *(str(n) for n in range(1, 16)))
# The lag (GEN-2) is played with two cue balls side by side: the second is the cue ball,
# tinted so that each player can tell theirs.
LAG_BALL = "lag-cue"
LAG_BALL_TINT = (0.55, 0.78, 1.0, 1.0)
# Coarsest mipmap level of the ball textures (512 x 256): 4x prefiltered, see _ball_texture.
BALL_TEXTURE_MAX_LOD = 2.0
# The soft shadow under each ball: the quad's half-size in ball radii, across and along
# the table (the lamps hang in a row along it, which stretches the penumbra that way).
SHADOW_SIZE = (2.2, 2.6)
# The number labels over the balls: shown while the camera looks down more steeply than
# this (degrees below the horizon) on balls narrower than this on screen (pixels); their
# radius in ball radii.
LABEL_PITCH = 40.0
LABEL_BELOW_PIXELS = 36.0
LABEL_SIZE = 0.45  # (0.64 made a solid a white disc in a ring of colour: a stripe)
# Picking: each ball node carries a collision sphere in this mask, and the tag "ball".
BALL_PICK_MASK = BitMask32.bit(21)
# The quality preset's shadow camera (its spot light's) draws what is in this mask: marks
# on the cloth (tracking lines) hide from it, as they cast no shadow and need no pass.
SHADOW_CAMERA_MASK = BitMask32.bit(22)

# Dimensions the physics table does not give (metres); the rail's width and the sights'
# place are in sim.app.scene.tablegeometry.
RAIL_THICKNESS = 0.075
APRON_DEPTH = 0.22  # the table body's skirt, from the cloth down
DIAMOND_SIZE = (0.024, 0.011)  # across the rail, along it
CUSHION_UNDERCUT = 0.012  # the rubber's face slopes back under the nose to the cloth
WOOD_TILE = (1.4, 0.175)  # metres per repeat of the wood texture, along and across

CLOTH_COLOURS: dict[str, tuple[float, float, float]] = {
    # sRGB, close to the tournament cloths seen on TV
    "blue": (0.05, 0.36, 0.62),
    "green": (0.06, 0.42, 0.20),
}
CUSHION_SHADE = 0.62  # cushion tops read darker than the bed, so the nose line shows
UNDER_CUSHION_SHADE = 0.3  # the strip of bed under the nose, in the cushion's shadow
# The pockets' liner (dark leather) as the lamps light it at the rail's top (deeper, it
# darkens: see sim.app.scene.meshes.pocket_liner), and its rim round each hole on the rail.
POCKET_LINER_COLOUR = (0.12, 0.095, 0.08)
POCKET_RIM_COLOUR = (0.075, 0.055, 0.045)
POCKET_RIM_WIDTH = 0.009
DIAMOND_COLOUR = (0.96, 0.95, 0.90)
FLOOR_COLOUR = (0.16, 0.10, 0.07)
BACKGROUND = (0.018, 0.016, 0.015)


def _colour_space(tex: Texture, srgb: bool) -> None:
    """Colour textures are sRGB. simplepbr lights in linear space, so it wants them
    decoded; fixed-function lighting works on the stored values, so the fast preset reads
    them as plain RGB. (The loader shares textures through its pool: set it either way.)"""
    to_srgb = {Texture.F_rgb: Texture.F_srgb, Texture.F_rgba: Texture.F_srgb_alpha}
    to_plain = {v: k for k, v in to_srgb.items()}
    fmt = tex.getFormat()
    swap = to_srgb if srgb else to_plain
    if fmt in swap:
        tex.setFormat(swap[fmt])


def to_linear(c: Sequence[float]) -> tuple[float, float, float]:
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c[:3])
    return (r, g, b)


# --------------------------------------------------------------------------------------
# The scene


class TableScene:
    """The table, the 16 balls and the lights, under ``base.render``.

    ``table_root`` holds the table (rebuilt by :meth:`set_table`), ``ball_nodes[id]`` each
    ball (tag ``"ball"`` = id, a collision sphere in :data:`BALL_PICK_MASK`); the balls
    start hidden. The camera is the app's (see :func:`sim.app.scene.camera.top_down_camera`
    for tests).
    """

    def __init__(
        self,
        base: ShowBase,
        spec: TableSpec,
        quality: Quality = "fast",
        cloth: ClothColour = "blue",
    ) -> None:
        if quality not in ("fast", "quality"):
            raise ValueError(f"quality must be 'fast' or 'quality', got {quality!r}")
        self.base = base
        self.quality: Quality = quality
        self.cloth_colour = CLOTH_COLOURS[cloth]
        # simplepbr stays on the ShowBase from one quality table to the next; a fast
        # table takes it off (before the clear colour: it restores the window's clears).
        self.pipeline: Any = None
        if quality == "quality":
            self.pipeline = start_pbr(base)
        else:
            stop_pbr(base)
        # simplepbr tone-maps the clear colour too: give it in linear light there.
        background = to_linear(BACKGROUND) if quality == "quality" else BACKGROUND
        base.setBackgroundColor(*background, 1)
        self.root = base.render.attachNewNode("table-scene")
        self.table_root = self.root.attachNewNode("table")
        self.table_root.setTag("table", "1")
        self.balls_root = self.root.attachNewNode("balls")
        self.shadows_root = self.root.attachNewNode("ball-shadows")
        self.lights_root = self.root.attachNewNode("lights")
        self._lights: list[NodePath] = []
        self._textures = self._load_textures()
        self._lightmap_stage = TextureStage("lightmap")
        self._lightmap_stage.setTexcoordName("lightmap")
        self._lightmap_stage.setMode(TextureStage.MModulate)
        self._lightmap_stage.setSort(10)
        # Fast preset: the cloth's weave, twice the texture times the colour, so that its
        # grey of 0.5 leaves the colour as it is (the quality preset draws the cloth
        # with its own texture).
        self._detail_stage = TextureStage("cloth-detail")
        self._detail_stage.setCombineRgb(
            TextureStage.CMModulate,
            TextureStage.CSPrevious,
            TextureStage.COSrcColor,
            TextureStage.CSTexture,
            TextureStage.COSrcColor,
        )
        self._detail_stage.setRgbScale(2)
        self._detail_stage.setSort(5)
        self.ball_nodes: dict[str, NodePath] = {}
        self._shadows: dict[str, NodePath] = {}
        self._labels: list[NodePath] = []
        self._detailed: list[NodePath] = []  # the cloth's nodes with the weave (fast)
        self._far = False  # the camera high over small balls: labels on, weave off
        self._ball_models: dict[str, NodePath] = {}
        self._load_balls()
        self.spec = spec
        self.table: Any = None
        self.layout: TableLayout | None = None
        self.set_table(spec)
        self._camera_task = f"poolsim-table-view-{id(self)}"
        base.taskMgr.add(self._follow_camera, self._camera_task, sort=45)

    def drawn_colour(self, colour: Sequence[float]) -> tuple[float, float, float]:
        """An sRGB colour as this preset is to be given it for a flat, unlit thing (a
        line, a tint): as it is (fast), or in linear light (quality: simplepbr works in
        linear light and encodes it to sRGB at the end, which would wash it out)."""
        if self.quality == "quality":
            return to_linear(colour)
        r, g, b = colour[:3]
        return (r, g, b)

    # ---- set-up

    def _load_textures(self) -> dict[str, Texture]:
        textures = {}
        for name in ("cloth", "cloth_detail", "wood", "ball_shadow"):
            tex = self.base.loader.loadTexture(
                Filename.fromOsSpecific(str(assets_dir() / f"{name}.png"))
            )
            if name != "ball_shadow":
                tex = tex.makeCopy()
                tex.setWrapU(SamplerState.WM_repeat)
                tex.setWrapV(SamplerState.WM_repeat)
                tex.setMagfilter(SamplerState.FT_linear)
                if self.quality == "fast":
                    # Trilinear filtering doubles the frame time on llvmpipe (the cloth
                    # fills most of the window); one mipmap level per pixel is enough.
                    tex.setMinfilter(SamplerState.FT_nearest_mipmap_nearest)
                else:
                    tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
                    tex.setAnisotropicDegree(4)
                if self.quality == "quality" and name != "cloth_detail":
                    # simplepbr lights in linear space: colour textures are sRGB.
                    tex.setFormat(Texture.F_srgb)
            textures[name] = tex
        return textures

    def _material(self, colour: Sequence[float], roughness: float, shine: float = 0.0) -> Material:
        m = Material()
        if self.quality == "quality":
            m.setBaseColor(Vec4(*to_linear(colour), 1))
            m.setRoughness(roughness)
            m.setMetallic(0.0)
        else:
            m.setAmbient(Vec4(*colour, 1))
            m.setDiffuse(Vec4(*colour, 1))
            m.setSpecular(Vec4(shine, shine, shine, 1))
            m.setShininess(40.0)
        return m

    def _ball_texture(self, ball: str) -> Texture:
        """The ball's texture (``assets/balls``, made by ``assets/make_balls.py``)."""
        tex = self.base.loader.loadTexture(
            Filename.fromOsSpecific(str(assets_dir() / "balls" / f"{ball}.png"))
        )
        sampler = SamplerState()
        sampler.setWrapU(SamplerState.WM_repeat)  # the -x number disc spans the seam
        sampler.setWrapV(SamplerState.WM_clamp)
        sampler.setMagfilter(SamplerState.FT_linear)
        # Numbers need mipmaps to stay legible on a ball twenty pixels wide, but the
        # coarsest levels (the whole texture's average) show as a spot at the poles of a
        # UV sphere, where the texture coordinates converge: stop a few levels short.
        sampler.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        sampler.setMaxLod(BALL_TEXTURE_MAX_LOD)
        if self.quality == "quality":
            sampler.setAnisotropicDegree(4)
        tex.setDefaultSampler(sampler)
        _colour_space(tex, srgb=self.quality == "quality")
        return tex

    def _load_balls(self) -> None:
        shadow_tex = self._textures["ball_shadow"]
        textures = {ball: self._ball_texture(ball) for ball in BALL_IDS}
        sphere = ball_sphere()
        for bid in (*BALL_IDS, LAG_BALL):
            node = self.balls_root.attachNewNode(f"ball-{bid}")
            node.setTag("ball", bid)
            model = sphere.copyTo(node)
            model.setTexture(textures["cue" if bid == LAG_BALL else bid], 1)
            if bid == LAG_BALL:
                # (in linear light for simplepbr, as a colour: else it fades to white)
                model.setColorScale(*self.drawn_colour(LAG_BALL_TINT), 1)
            picker = node.attachNewNode(CollisionNode(f"pick-{bid}"))
            picker.node().setIntoCollideMask(BALL_PICK_MASK)
            self.ball_nodes[bid] = node
            self._ball_models[bid] = model
            shadow = self._shadow_quad(f"shadow-{bid}", shadow_tex)
            self._shadows[bid] = shadow
            if bid.isdigit():
                self._labels.append(self._number_label(node, bid))
            node.hide()
            shadow.hide()
        gloss = Material()
        if self.quality == "quality":
            # a polished phenolic resin ball
            gloss.setBaseColor(Vec4(1, 1, 1, 1))
            gloss.setRoughness(0.2)
            gloss.setMetallic(0.0)
        else:
            # Fixed-function lighting: a hard clear-coat highlight.
            gloss.setSpecular(Vec4(0.55, 0.55, 0.55, 1))
            gloss.setShininess(60.0)
            gloss.setAmbient(Vec4(1, 1, 1, 1))
            gloss.setDiffuse(Vec4(1, 1, 1, 1))
        self.balls_root.setMaterial(gloss, 1)

    def _number_label(self, ball: NodePath, number: str) -> NodePath:
        """The ball's number disc facing the camera, just in front of the ball (shown
        from high above only, see :meth:`_follow_camera`)."""
        tex = self.base.loader.loadTexture(
            Filename.fromOsSpecific(str(assets_dir() / "balls" / f"label-{number}.png"))
        )
        tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        if self.quality == "quality":
            # An sRGB texture's mipmaps average in linear light, where a thin dark stroke
            # on ivory fades to a pale grey: a level finer keeps the number dark.
            sampler = SamplerState(tex.getDefaultSampler())
            sampler.setLodBias(-1.0)
            tex.setDefaultSampler(sampler)
        tex.setMagfilter(SamplerState.FT_linear)
        tex.setWrapU(SamplerState.WM_clamp)
        tex.setWrapV(SamplerState.WM_clamp)
        _colour_space(tex, srgb=self.quality == "quality")
        card = CardMaker(f"label-{number}")
        card.setFrame(-1, 1, -1, 1)
        label = ball.attachNewNode(card.generate())
        label.setTexture(tex, 1)
        label.setTransparency(TransparencyAttrib.MAlpha)
        label.setLightOff(1)
        # Drawn as printed: simplepbr's shader, unlit, greyed the ink to the ivory's tone.
        label.setShaderOff(1)
        label.setDepthWrite(False)
        label.hide()
        return label

    def _follow_camera(self, task: Any) -> Any:
        """Each frame: whether the camera looks down steeply on balls too small on screen
        for the numbers printed on them to read (the overhead and broadcast views). Then
        the number labels are on, and the cloth's weave is off: far off it is finer
        than a pixel (its mipmaps a flat grey), and it costs software GL ~6 ms a frame
        at 1280x800. Only a change touches the scene."""
        camera = self.base.camera
        forward = self.root.getRelativeVector(camera, Vec3(0, 1, 0))
        height = self.root.getRelativePoint(camera, Vec3(0, 0, 0)).z
        down = -forward.z
        far = False
        if down > math.sin(math.radians(LABEL_PITCH)) and height > 0:
            distance = height / down  # to the cloth, along the view
            fov_v = math.radians(self.base.camLens.getFov()[1])
            per_metre = self.base.win.getYSize() / (2 * distance * math.tan(fov_v / 2))
            far = 2 * self.spec.ball_radius * per_metre < LABEL_BELOW_PIXELS
        if far != self._far:
            self._far = far
            for label in self._labels:
                label.show() if far else label.hide()
            for node in self._detailed:
                self._weave(node, not far)
        return task.cont

    def _weave(self, node: NodePath, on: bool) -> None:
        if on:
            node.setTexture(self._detail_stage, self._textures["cloth_detail"], 1)
        else:
            node.clearTexture(self._detail_stage)

    def _shadow_quad(self, name: str, texture: Texture) -> NodePath:
        mesh = MeshBuilder(Rect(0, 0, 1, 1))
        square = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
        mesh.add_flat(square, 0.0, lambda p: (p + 1) / 2)
        shadow = self.shadows_root.attachNewNode(mesh.node(name))
        shadow.setTexture(texture)
        shadow.setTransparency(TransparencyAttrib.MAlpha)
        shadow.setDepthWrite(False)
        shadow.setLightOff(1)
        shadow.setColor(0, 0, 0, 1)
        shadow.setBin("fixed", 10)
        return shadow

    # ---- the table

    def set_table(self, spec: TableSpec) -> None:
        """Build (or rebuild) the table for ``spec``; balls keep their nodes."""
        self.spec = spec
        self.table = spec.plan()  # no pooltool: the first table shows while it loads
        self.layout = TableLayout.from_table(self.table)
        self.table_root.getChildren().detach()
        self._detailed = []
        self._remove_lights()
        self._build_table(self.layout, float(self.table.height))
        self._build_lights(self.layout)
        radius = spec.ball_radius
        for bid, model in self._ball_models.items():
            model.setScale(radius)
            picker = self.ball_nodes[bid].find(f"pick-{bid}").node()
            picker.clearSolids()
            picker.addSolid(CollisionSphere(0, 0, 0, radius))
            self._shadows[bid].setScale(radius * SHADOW_SIZE[0], radius * SHADOW_SIZE[1], 1)
        for label in self._labels:
            label.setScale(radius * LABEL_SIZE)
            label.setBillboardPointEye(radius * 1.05)

    def _build_table(self, lay: TableLayout, table_height: float) -> None:
        extent = lay.outer.grow(0.6)

        def new() -> MeshBuilder:
            return MeshBuilder(extent)

        cloth_mat = self._material(self.cloth_colour, 0.95)
        cushion_mat = self._material([c * CUSHION_SHADE for c in self.cloth_colour], 0.9)
        shade_mat = self._material([c * UNDER_CUSHION_SHADE for c in self.cloth_colour], 1.0)
        wood_mat = self._material((1, 1, 1), 0.6)
        rim_mat = self._material(POCKET_RIM_COLOUR, 0.5, shine=0.1)
        diamond_mat = self._material(DIAMOND_COLOUR, 0.3, shine=0.4)
        floor_mat = self._material(FLOOR_COLOUR, 0.8)
        h, top = lay.nose_height, lay.rail_top

        cloth = new()
        cloth.add_flat(lay.cloth, 0.0, lambda p: p / CLOTH_TILE)

        cushions, shade = new(), new()
        for polygon, rise in lay.cushion_tops:
            # The top rises from the nose to the rail's height at the back, which closes
            # the cushion against the wood.
            cushions.add_flat(polygon, rise, lambda p: p / CLOTH_TILE)
        for nose in lay.cushion_faces:
            out = line_normals(nose)
            foot = nose + CUSHION_UNDERCUT * out
            n3 = np.column_stack([-h * out, np.full(len(out), -CUSHION_UNDERCUT)])
            n3 /= np.linalg.norm(n3, axis=1, keepdims=True)
            s = distance_along(nose)
            cushions.add_strip(
                np.column_stack([nose, np.full(len(nose), h)]),
                np.column_stack([foot, np.zeros(len(foot))]),
                n3,
                np.concatenate([np.column_stack([s, np.zeros_like(s)])] * 2) / CLOTH_TILE,
            )
            # The cloth in the cushion's shadow, under the overhang of the nose: it shows
            # from across the table.
            n = len(nose)
            shade.add_strip(
                np.column_stack([nose, np.zeros(n)]),
                np.column_stack([foot, np.zeros(n)]),
                np.tile([0.0, 0.0, 1.0], (n, 1)),
                np.concatenate([nose, foot]) / CLOTH_TILE,
            )

        wood = new()
        for piece, grain in lay.rail_pieces:
            if grain == "x":
                wood.add_flat(piece, top, lambda p: p / WOOD_TILE)
            else:
                wood.add_flat(piece, top, lambda p: p[:, ::-1] / WOOD_TILE)
        self._rail_sides(wood, lay, table_height)

        # The holes: the liner, drawn unlit in colours that carry their light (see
        # pocket_liner), round the wood's and the cushions' cut down to the cloth, then
        # narrowing into the dark below it; a leather rim round each hole on the rail.
        pockets = MeshBuilder(extent, colours=True)
        depth = 0.08 + self.spec.ball_radius  # pooltool drops a ball to z = -0.08
        # (quality: simplepbr's buffer holds linear light, which it tone-maps at the end)
        srgb = self.quality == "quality"
        liner = np.asarray(to_linear(POCKET_LINER_COLOUR) if srgb else POCKET_LINER_COLOUR)
        rims = new()
        walls = [(arc, np.full(len(arc), top), True) for arc in lay.pocket_walls]
        walls += [(arc, z, False) for arc, z in lay.cushion_walls]
        for arc, z_top, on_rail in walls:
            centre = next(
                c for _, c, r in lay.pockets if abs(np.linalg.norm(arc[0] - c) - r) < 1e-6
            )
            facing = centre - arc
            facing /= np.linalg.norm(facing, axis=1, keepdims=True)
            n = len(arc)
            s = distance_along(arc)
            pockets.add_strip(
                np.column_stack([arc, z_top]),
                np.column_stack([arc, np.zeros(n)]),
                np.column_stack([facing, np.zeros(n)]),
                np.concatenate([np.column_stack([s, z_top]), np.column_stack([s, 0 * s])]),
                (liner, liner * LINER_PROFILE[0][2]),
            )
            if on_rail:
                rims.add_strip(
                    np.column_stack([arc, np.full(n, top + 0.0004)]),
                    np.column_stack([arc - POCKET_RIM_WIDTH * facing, np.full(n, top + 0.0004)]),
                    np.tile([0.0, 0.0, 1.0], (n, 1)),
                    np.zeros((2 * n, 2)),
                )
        for _, centre, radius in lay.pockets:
            pocket_liner(pockets, centre, radius, depth, liner)

        diamonds = new()
        half_a, half_b = DIAMOND_SIZE[0] / 2, DIAMOND_SIZE[1] / 2
        for x, y, across_x in lay.diamonds():
            # a rhombus, its long axis across the rail (pointing at the table)
            a, b = (half_a, half_b) if across_x else (half_b, half_a)
            shape = np.array([[x - a, y], [x, y - b], [x + a, y], [x, y + b]])
            diamonds.add_flat(shape, top + 0.0006, lambda p: p)

        floor = new()
        fl = lay.outer.grow(4.0)
        floor.add_flat(fl.corners, -table_height, lambda p: p / CLOTH_TILE)

        for name, mesh, mat, tex in (
            ("cloth", cloth, cloth_mat, "cloth"),
            ("cushions", cushions, cushion_mat, "cloth"),
            ("under-cushions", shade, shade_mat, "cloth"),
            ("rails", wood, wood_mat, "wood"),
            ("pockets", pockets, None, None),
            ("pocket-rims", rims, rim_mat, None),
            ("diamonds", diamonds, diamond_mat, None),
            ("floor", floor, floor_mat, "cloth"),
        ):
            np_ = self.table_root.attachNewNode(mesh.node(name))
            if mat is None:
                # Its light is in its vertex colours: no lamps, no light map, no shader.
                np_.setLightOff(1)
                np_.setTextureOff(self._lightmap_stage, 2)
                np_.setShaderOff(1)
            else:
                np_.setMaterial(mat, 1)
            if name == "floor":
                # drawn after the table, so the depth test throws away what it hides
                np_.setBin("fixed", 0)
            if tex == "wood" or (tex is not None and self.quality == "quality"):
                np_.setTexture(self._textures[tex], 1)
            elif tex == "cloth" and name != "floor":
                self._detailed.append(np_)
                self._weave(np_, not self._far)
        if self.quality == "fast":
            # One stage for the scene's life: a new stage per rebuild would add up.
            self.table_root.setTexture(self._lightmap_stage, lightmap(extent, lay, 1.0), 1)

    def _rail_sides(self, wood: MeshBuilder, lay: TableLayout, table_height: float) -> None:
        """The rounded outer edge of the rail top, the rail's outer face, the apron and
        the legs."""
        top = lay.rail_top
        inner = lay.rail_line.grow(RAIL_WIDTH - RAIL_BEVEL).corners
        outer = lay.outer.corners
        drop = top - RAIL_BEVEL * 0.8
        low = top - RAIL_THICKNESS
        for k in range(4):
            a, b = k, (k + 1) % 4
            d = outer[b] - outer[a]
            d /= np.linalg.norm(d)
            out = np.array([d[1], -d[0]])
            slope = np.array([*out * 0.8, 1.0])
            slope /= np.linalg.norm(slope)
            along = np.array([float(np.dot(p, d)) for p in (inner[a], inner[b])])
            wood.add_strip(
                np.array([[*inner[a], top], [*inner[b], top]]),
                np.array([[*outer[a], drop], [*outer[b], drop]]),
                np.tile(slope, (2, 1)),
                np.array([[along[0], 0], [along[1], 0], [along[0], 0.1], [along[1], 0.1]])
                / WOOD_TILE[0],
            )
            vertical_wall(wood, np.array([outer[a], outer[b]]), drop, low, np.tile(out, (2, 1)))
        body = lay.outer.grow(-0.035)
        box(wood, (body.x0, body.y0, -APRON_DEPTH), (body.x1, body.y1, low))
        leg = 0.11
        inset = lay.outer.grow(-0.16)
        ys = [inset.y0, inset.y1]
        if lay.length > 2.4:
            ys.append((inset.y0 + inset.y1) / 2)
        for x in (inset.x0, inset.x1):
            for y in ys:
                box(
                    wood,
                    (x - leg / 2, y - leg / 2, -table_height),
                    (x + leg / 2, y + leg / 2, -APRON_DEPTH),
                )

    def _build_lights(self, lay: TableLayout) -> None:
        centre = (lay.width / 2, lay.length / 2)
        ambient = self.lights_root.attachNewNode(AmbientLight("ambient"))
        if self.quality == "fast":
            ambient.node().setColor(Vec4(0.42, 0.42, 0.44, 1))
            key = self.lights_root.attachNewNode(DirectionalLight("lamps"))
            key.node().setColor(Vec4(0.72, 0.70, 0.66, 1))
            key.node().setSpecularColor(Vec4(1, 1, 1, 1))
            key.setHpr(15, -75, 0)
        else:
            ambient.node().setColor(Vec4(0.10, 0.10, 0.11, 1))
            key = self.lights_root.attachNewNode(Spotlight("lamps"))
            key.node().setColor(Vec4(3.6, 3.5, 3.3, 1))
            key.node().setAttenuation((1.0, 0.0, 0.45))
            lens = key.node().getLens()
            lens.setFov(110)
            lens.setNearFar(0.4, 4.0)
            key.node().setShadowCaster(True, 2048, 2048)
            key.node().setCameraMask(SHADOW_CAMERA_MASK)
            key.setPos(centre[0], centre[1], 1.5)
            key.lookAt(centre[0], centre[1], 0)
        # On render, not on the scene: the app's own models (the cue) share the lights.
        for light in (ambient, key):
            self.base.render.setLight(light)
            self._lights.append(light)

    def _remove_lights(self) -> None:
        for light in self._lights:
            self.base.render.clearLight(light)
            light.removeNode()
        self._lights = []

    # ---- balls

    def set_balls(
        self,
        ids: Sequence[str],
        positions: ArrayLike,
        orientations: ArrayLike | None = None,
        visible: ArrayLike | None = None,
    ) -> None:
        """Show exactly the balls ``ids`` (others are hidden): centres (B, 3) in metres,
        orientations (B, 4) unit quaternions (w, x, y, z) from the model's frame to the
        table's (identity if None), ``visible`` (B,) bools (all if None)."""
        pos = np.asarray(positions, dtype=float).reshape(len(ids), 3)
        quat = (
            np.tile([1.0, 0.0, 0.0, 0.0], (len(ids), 1))
            if orientations is None
            else np.asarray(orientations, dtype=float).reshape(len(ids), 4)
        )
        shown = np.ones(len(ids), bool) if visible is None else np.asarray(visible, bool)
        unknown = set(ids) - set(self.ball_nodes)
        if unknown:
            raise KeyError(f"no ball model for {sorted(unknown)}")
        r = self.spec.ball_radius
        listed = set()
        for i, bid in enumerate(ids):
            node, shadow = self.ball_nodes[bid], self._shadows[bid]
            listed.add(bid)
            if not shown[i]:
                node.hide()
                shadow.hide()
                continue
            x, y, z = pos[i]
            node.setPosQuat((x, y, z), Quat(*quat[i]))
            shadow.setPos(x, y, z - r + 0.0008)
            node.show()
            shadow.show()
        for bid in self.ball_nodes.keys() - listed:
            self.ball_nodes[bid].hide()
            self._shadows[bid].hide()

    def set_states(
        self, ids: Sequence[str], states: BallStates, show_pocketed: bool = False
    ) -> None:
        """Place the balls as a timeline's :class:`~sim.physics.timeline.BallStates` at one time
        says (``ids`` in its ball order); pocketed balls are hidden unless asked for."""
        visible = np.ones(len(ids), bool) if show_pocketed else ~np.asarray(states.pocketed, bool)
        self.set_balls(ids, states.positions, states.orientations, visible)

    def hide_balls(self) -> None:
        self.set_balls([], np.zeros((0, 3)))

    # ---- tidy-up

    def destroy(self) -> None:
        """Remove the scene's nodes and lights (simplepbr, if started, stays on base)."""
        self.base.taskMgr.remove(self._camera_task)
        self._remove_lights()
        self.root.removeNode()
