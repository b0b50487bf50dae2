"""Panda3D geometry for the 3D table: meshes built from plan polygons, and the light map.

:class:`MeshBuilder` gathers triangles (with normals, a material texture coordinate and a
light-map coordinate) into one ``GeomNode``; :func:`triangulate` fills a polygon,
:func:`vertical_wall` and :func:`box` put up walls, :func:`lightmap` bakes the lamps'
pool of light for the fast preset, and :func:`ball_sphere` makes the balls' spheres,
lighter far away for software GL. Plan geometry comes from
:mod:`sim.app.scene.tablegeometry`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from panda3d.core import (
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    InternalName,
    LODNode,
    NodePath,
    SamplerState,
    Texture,
    Triangulator,
)

from sim.app.scene.tablegeometry import Array, Rect, TableLayout, circle_arc, distance_along

CLOTH_TILE = 0.35  # metres per repeat of the cloth texture (walls are mapped in it too)
# A pocket's liner under the cloth: (depth, radius, light) from the cloth's edge down,
# depth as a share of the pocket's, radius of the hole's, light as a share of the light
# on the liner at the rail's top.
LINER_PROFILE = (
    (0.0, 1.0, 0.6),
    (0.12, 0.97, 0.42),
    (0.35, 0.9, 0.24),
    (0.7, 0.83, 0.08),
    (1.0, 0.8, 0.02),
)
# Ball spheres (segments round, rings pole to pole) and the camera distances at which
# each is shown, in ball radii (42 radii: 1.2 m for a pool ball, which is ~58 px wide
# there at 1280x800 on a 55 degree lens).
BALL_LODS = ((48, 24), (32, 16), (16, 8))
BALL_LOD_DISTANCES = ((42.0, 0.0), (87.5, 42.0), (35000.0, 87.5))


def triangulate(outer: Array, holes: Sequence[Array] = ()) -> tuple[Array, NDArray[np.int32]]:
    """Triangles covering a polygon (with holes): all points stacked, and (m, 3) indices,
    each triangle counter-clockwise seen from +z."""
    tri = Triangulator()
    points = [outer, *holes]
    for x, y in outer:
        tri.addPolygonVertex(tri.addVertex(float(x), float(y)))
    for hole in holes:
        tri.beginHole()
        for x, y in hole:
            tri.addHoleVertex(tri.addVertex(float(x), float(y)))
    tri.triangulate()
    faces = np.array(
        [
            (tri.getTriangleV0(i), tri.getTriangleV1(i), tri.getTriangleV2(i))
            for i in range(tri.getNumTriangles())
        ],
        dtype=np.int32,
    ).reshape(-1, 3)
    stacked = np.concatenate(points)
    a, b, c = stacked[faces[:, 0]], stacked[faces[:, 1]], stacked[faces[:, 2]]
    cross = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    faces[cross < 0] = faces[cross < 0][:, ::-1]
    return stacked, faces


class MeshBuilder:
    """Triangles with normals, a material texture coordinate and a light-map coordinate
    (x, y mapped onto ``light_extent``), and a colour per vertex if asked for, turned
    into one GeomNode."""

    _FORMATS: ClassVar[dict[tuple[str, bool], GeomVertexFormat]] = {}  # registered once

    def __init__(
        self, light_extent: Rect, uv_name: InternalName | None = None, colours: bool = False
    ) -> None:
        """``uv_name``: the material coordinate's column (the default texcoord unless a
        texture stage reads another one); ``colours``: every :meth:`add` gives each
        vertex an RGB colour (light baked in, for surfaces drawn unlit)."""
        self._extent = light_extent
        self._uv_name = uv_name or InternalName.getTexcoord()
        self._colours = colours
        self._rows: list[Array] = []
        self._faces: list[NDArray[np.int32]] = []
        self._count = 0

    def _format(self) -> GeomVertexFormat:
        key = (self._uv_name.getName(), self._colours)
        if key not in self._FORMATS:
            columns = GeomVertexArrayFormat()
            columns.addColumn(InternalName.getVertex(), 3, Geom.NTFloat32, Geom.CPoint)
            columns.addColumn(InternalName.getNormal(), 3, Geom.NTFloat32, Geom.CNormal)
            columns.addColumn(self._uv_name, 2, Geom.NTFloat32, Geom.CTexcoord)
            columns.addColumn(
                InternalName.getTexcoordName("lightmap"), 2, Geom.NTFloat32, Geom.CTexcoord
            )
            if self._colours:
                columns.addColumn(InternalName.getColor(), 4, Geom.NTFloat32, Geom.CColor)
            self._FORMATS[key] = GeomVertexFormat.registerFormat(GeomVertexFormat(columns))
        return self._FORMATS[key]

    def add(
        self,
        points: Array,
        normals: Array,
        uvs: Array,
        faces: ArrayLike,
        colours: ArrayLike | None = None,
    ) -> None:
        """Vertices (n, 3) with normals (n, 3) and uvs (n, 2); faces index them;
        ``colours`` (n, 3) RGB when the builder has colours (white if not given)."""
        e = self._extent
        lm = np.stack(
            [(points[:, 0] - e.x0) / (e.x1 - e.x0), (points[:, 1] - e.y0) / (e.y1 - e.y0)], axis=1
        )
        columns = [points, normals, uvs, lm]
        if self._colours:
            rgb = np.ones((len(points), 3)) if colours is None else np.asarray(colours, float)
            columns.append(
                np.column_stack([np.broadcast_to(rgb, (len(points), 3)), np.ones(len(points))])
            )
        self._rows.append(np.concatenate(columns, axis=1))
        self._faces.append(np.asarray(faces, dtype=np.int32).reshape(-1, 3) + self._count)
        self._count += len(points)

    def add_flat(
        self,
        poly: Array,
        z: float | Array,
        uv: Any,
        holes: Sequence[Array] = (),
        colour: ArrayLike | None = None,
    ) -> None:
        """A polygon facing up at height ``z`` (or one height per polygon point, holes
        then at z[0]); ``uv`` maps (n, 2) plan points to (n, 2); ``colour``: its RGB when
        the builder has colours."""
        flat, faces = triangulate(poly, holes)
        heights = np.broadcast_to(np.asarray(z, dtype=float), (len(poly),))
        heights = np.concatenate([heights, np.full(len(flat) - len(poly), heights[0])])
        points = np.column_stack([flat, heights])
        normals = np.tile([0.0, 0.0, 1.0], (len(flat), 1))
        self.add(points, normals, uv(flat), faces, colour)

    def add_strip(
        self,
        top: Array,
        bottom: Array,
        normals: Array,
        uvs: Array,
        colours: tuple[ArrayLike, ArrayLike] | None = None,
    ) -> None:
        """Quads between two matching 3D polylines (n, 3) with per-point normals,
        each row of quads wound so it faces along ``normals``; ``colours``: the top's
        and the bottom's RGB (one or one per point)."""
        n = len(top)
        points = np.concatenate([top, bottom])
        faces = []
        for i in range(n - 1):
            a, b, c, d = i, i + 1, n + i + 1, n + i
            faces += [(a, d, c), (a, c, b)]
        f = np.array(faces, dtype=np.int32)
        # Fix the winding from the first quad's geometric normal against the wanted one.
        p = points
        cross = np.cross(p[f[0, 1]] - p[f[0, 0]], p[f[0, 2]] - p[f[0, 0]])
        if float(cross @ normals[0]) < 0:
            f = f[:, ::-1]
        rgb = None
        if colours is not None:
            rgb = np.concatenate([np.broadcast_to(np.asarray(c, float), (n, 3)) for c in colours])
        self.add(points, np.concatenate([normals, normals]), uvs, f, rgb)

    def node(self, name: str) -> GeomNode:
        rows = np.concatenate(self._rows).astype(np.float32)
        faces = np.concatenate(self._faces).astype(np.uint32)
        vdata = GeomVertexData(name, self._format(), Geom.UHStatic)
        vdata.uncleanSetNumRows(len(rows))
        memoryview(vdata.modifyArray(0)).cast("B")[:] = rows.tobytes()
        prim = GeomTriangles(Geom.UHStatic)
        prim.setIndexType(Geom.NTUint32)
        handle = prim.modifyVertices()
        handle.uncleanSetNumRows(faces.size)
        memoryview(handle).cast("B")[:] = faces.tobytes()
        geom = Geom(vdata)
        geom.addPrimitive(prim)
        node = GeomNode(name)
        node.addGeom(geom)
        return node


def vertical_wall(
    mesh: MeshBuilder, line: Array, z_top: float, z_bottom: float, facing: Array
) -> None:
    """A vertical wall under a plan polyline; ``facing`` (n, 2) gives each point's normal."""
    n = len(line)
    top = np.column_stack([line, np.full(n, z_top)])
    bottom = np.column_stack([line, np.full(n, z_bottom)])
    normals = np.column_stack([facing, np.zeros(n)])
    s = distance_along(line)
    uvs = np.concatenate(
        [np.column_stack([s, np.full(n, z_top)]), np.column_stack([s, np.full(n, z_bottom)])]
    )
    mesh.add_strip(top, bottom, normals, uvs / CLOTH_TILE)


def pocket_liner(
    mesh: MeshBuilder, centre: Array, radius: float, depth: float, colour: ArrayLike
) -> None:
    """A pocket's hole under the cloth (``mesh`` has colours): the liner narrowing down
    to the bottom ``depth`` below the cloth, darker the deeper as the light from the
    lamps falls off into it (baked into the vertex colours: drawn unlit, it looks the same
    in every light), and the bottom, black. The depth shows from above as a ring
    darkening inward."""
    ring = circle_arc(centre, 1.0, 0.0, 2 * math.pi)[:-1] - centre  # unit directions
    ring = np.concatenate([ring, ring[:1]])
    profile = [(z * depth, r * radius, light) for z, r, light in LINER_PROFILE]
    for (z0, r0, l0), (z1, r1, l1) in itertools.pairwise(profile):
        # The wall's normal, in (out from the axis, up): in toward the axis and up.
        inward, up = np.array([z1 - z0, r0 - r1]) / math.hypot(z1 - z0, r0 - r1)
        normals = np.column_stack([-ring * inward, np.full(len(ring), up)])
        mesh.add_strip(
            np.column_stack([centre + r0 * ring, np.full(len(ring), -z0)]),
            np.column_stack([centre + r1 * ring, np.full(len(ring), -z1)]),
            normals,
            np.zeros((2 * len(ring), 2)),
            (np.asarray(colour) * l0, np.asarray(colour) * l1),
        )
    z_end, r_end, _ = profile[-1]
    mesh.add_flat(centre + r_end * ring[:-1], -z_end, lambda p: p * 0, colour=np.zeros(3))


def box(mesh: MeshBuilder, lo: tuple[float, float, float], hi: tuple[float, float, float]) -> None:
    """The four sides of an axis-aligned box (legs and the apron's body): top and bottom
    are never seen, and a bottom facing up under the table would be drawn for nothing
    over the whole table on software GL."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    ring = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]])
    for a, b in itertools.pairwise(ring):
        line = np.array([a, b])
        d = (b - a) / np.linalg.norm(b - a)
        facing = np.tile([d[1], -d[0]], (2, 1))
        vertical_wall(mesh, line, z1, z0, facing)


def lightmap(extent: Rect, layout: TableLayout, lamp_height: float) -> Texture:
    """The pool of light three lamps over the table throw (fast preset): bright over the
    bed, falling off toward the rails and into the room, a little darker along the
    cushions' feet. Multiplies the lit colour of every table surface. The cloth's mottle
    is in it too: the fast preset draws the cloth with this one texture (each texture a
    pixel reads costs llvmpipe ~5 ms a frame at 1280x800)."""
    res = 96  # texels per metre
    nx = round((extent.x1 - extent.x0) * res)
    ny = round((extent.y1 - extent.y0) * res)
    x = extent.x0 + (np.arange(nx) + 0.5) / res
    y = extent.y0 + (np.arange(ny) + 0.5) / res
    gx, gy = np.meshgrid(x, y)
    irradiance = np.zeros_like(gx)
    w, ln = layout.width, layout.length
    for k in (-1, 0, 1):
        d2 = (gx - w / 2) ** 2 + (gy - ln / 2 - k * 0.3 * ln) ** 2
        irradiance += lamp_height**3 / (lamp_height**2 + d2) ** 1.5
    light = 0.32 + 0.68 * irradiance / irradiance.max()
    # Contact darkening along the cushions' feet, on the bed only.
    edge = np.minimum.reduce([gx, w - gx, gy, ln - gy])
    light *= 1 - 0.22 * np.exp(-np.clip(edge, 0, None) / 0.02) * (edge > 0)
    rng = np.random.default_rng(860)
    noise = np.fft.irfft2(
        np.fft.rfft2(rng.normal(size=gx.shape))
        * np.exp(-((np.fft.fftfreq(ny)[:, None] ** 2 + np.fft.rfftfreq(nx)[None, :] ** 2) * 15)),
        s=gx.shape,
    )
    light *= 1 + 0.012 * noise / noise.std()
    image = np.clip(np.round(light * 255), 0, 255).astype(np.uint8)
    tex = Texture("lightmap")
    tex.setup2dTexture(nx, ny, Texture.T_unsigned_byte, Texture.F_luminance)
    tex.setRamImage(image.tobytes())
    tex.setWrapU(SamplerState.WM_clamp)
    tex.setWrapV(SamplerState.WM_clamp)
    tex.setMinfilter(SamplerState.FT_linear)
    tex.setMagfilter(SamplerState.FT_linear)
    return tex


def ball_sphere() -> NodePath:
    """A pool ball's sphere of radius 1 (scale it to the ball), lighter the farther it is
    (a ``LODNode``: its switch distances scale with it), mapped
    for the textures of ``assets/balls`` (u from the longitude about the z axis, 0.5 at
    +x; v from the latitude, 0 at the south pole).

    Software GL sets up every triangle on one thread: sixteen of pooltool's
    9,000-triangle balls cost ~40 ms a frame on llvmpipe, sixteen 4,000-triangle ones
    still ~14 ms. The far balls (a whole-table view) get 600 triangles, the near ones the
    smooth outline."""
    lod = LODNode("ball")
    levels = NodePath(lod)
    for (segments, rings), (far, near) in zip(BALL_LODS, BALL_LOD_DISTANCES, strict=True):
        lon = np.linspace(-math.pi, math.pi, segments + 1)
        lat = np.linspace(-math.pi / 2, math.pi / 2, rings + 1)
        glat, glon = np.meshgrid(lat, lon, indexing="ij")
        normals = np.stack(
            [np.cos(glat) * np.cos(glon), np.cos(glat) * np.sin(glon), np.sin(glat)], axis=-1
        ).reshape(-1, 3)
        uvs = np.stack([0.5 + glon / (2 * math.pi), 0.5 + glat / math.pi], axis=-1)
        faces = []
        for r in range(rings):
            for k in range(segments):
                a = r * (segments + 1) + k
                b, c, d = a + 1, a + segments + 2, a + segments + 1
                faces += [(a, b, c), (a, c, d)]
        mesh = MeshBuilder(Rect(0, 0, 1, 1))
        mesh.add(normals, normals, uvs.reshape(-1, 2), faces)
        levels.attachNewNode(mesh.node(f"ball-{segments}"))
        lod.addSwitch(far, near)
    return levels
