"""pooltool systems to and from msgpack bytes: pooltool 0.6.0's own serialization of a
``System`` (what its cattrs converter writes), read back by hand.

Reading is the hot path of opening a saved game (hundreds of shots, thousands of balls
inside events), and of the desktop's physics worker handing back every shot. pooltool's
generic cattrs structuring spends most of its time on work a game file does not need: a
filesystem check per ball set (every ball of every event), a generic hook per field. Here
each object is built directly from the decoded msgpack maps, with numpy arrays made
straight from their bytes, and frozen parts (ball parameters, ball sets, orientations,
cue specs, cushion segments) built once and shared, as pooltool's own copies share them.

Reading is strict, since the bytes come from a file: every map must have exactly the keys
pooltool writes, every number must be finite, arrays must have their shapes, motion
states and times must make sense; anything else is a :class:`ShotDataError` naming the
place (``events[12].agents[1].initial.state.rvw: ...``). Nothing is ever unpickled: an
array is numbers only (pooltool's msgpack-numpy would unpickle an object array).

What is msgpack's own stays here: values are checked by their exact types (msgpack makes
only dicts, tuples, str, int, float...), arrays are msgpack-numpy's maps of bytes, and keys
may be of any type; places are written as the other strict readers write them
(:mod:`rules.reading`), inline where a place is passed down for every object read.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable
from typing import Any, NoReturn, Protocol, TypeVar

import msgpack
import numpy as np

from rules.reading import at, item, missing_key
from sim.physics.pooltool_setup import pt

# What pooltool's msgpack-numpy writes for an array (``kind`` is empty for numbers).
_NUMERIC_DTYPES = frozenset({"<f8", "<f4", "<i8", "<i4", "|b1", "|u1", "<u8"})
_FLOAT64 = np.dtype("<f8")
_ARRAY_KEYS = frozenset({b"nd", b"type", b"kind", b"shape", b"data"})
_NINE_NUMBERS = struct.Struct("<9d")
_MAX_STATES = 2**24  # of one ball's history: far beyond any shot (a break has ~100)

_SYSTEM_KEYS = frozenset({"cue", "table", "balls", "t", "events"})
_CUE_KEYS = frozenset({"id", "V0", "phi", "theta", "a", "b", "cue_ball_id", "specs"})
_CUE_NUMBERS = ("V0", "phi", "theta", "a", "b")
_SPECS_NUMBERS = (
    "M",
    "length",
    "tip_radius",
    "shaft_radius_at_tip",
    "shaft_radius_at_butt",
    "end_mass",
)
_SPECS_KEYS = frozenset({"brand", *_SPECS_NUMBERS})
_TABLE_KEYS = frozenset(
    {"cushion_segments", "pockets", "table_type", "model_descr", "height", "lights_height"}
)
_SEGMENTS_KEYS = frozenset({"linear", "circular"})
_LINEAR_KEYS = frozenset({"id", "p1", "p2", "direction"})
_CIRCULAR_KEYS = frozenset({"id", "center", "radius"})
_POCKET_KEYS = frozenset({"id", "center", "radius", "depth", "contains"})
_NAME_KEYS = frozenset({"name"})
_BALL_KEYS = frozenset(
    {"id", "state", "params", "ballset", "initial_orientation", "history", "history_cts"}
)
_STATE_KEYS = frozenset({"rvw", "s", "t"})
_PARAMS_NUMBERS = ("m", "R", "u_s", "u_r", "u_sp_proportionality", "u_b", "e_b", "e_c", "f_c", "g")
_PARAMS_KEYS = frozenset(_PARAMS_NUMBERS)
_ORIENTATION_KEYS = frozenset({"pos", "sphere"})
_EVENT_KEYS = frozenset({"event_type", "agents", "time"})
_AGENT_KEYS = frozenset({"id", "agent_type", "initial", "final"})

_MOTION_STATES = frozenset(
    {
        pt.constants.stationary,
        pt.constants.spinning,
        pt.constants.sliding,
        pt.constants.rolling,
        pt.constants.pocketed,
    }
)
_CUSHION_DIRECTIONS = frozenset({0, 1, 2})  # pooltool's CushionDirection: SIDE1, SIDE2, BOTH

AgentType = pt.events.AgentType
EventType = pt.EventType
# Enum members by value: a dict lookup is cheaper than calling the enum, per event.
_EVENT_TYPES = {member.value: member for member in EventType}
_AGENT_TYPES = {member.value: member for member in AgentType}
_TABLE_TYPES = {member.value: member for member in pt.TableType}
# The agents of each kind of event, in pooltool's order (the order of the type's name).
_AGENTS_OF_EVENT: dict[Any, tuple[Any, ...]] = {
    EventType.NONE: (AgentType.NULL,),
    EventType.BALL_BALL: (AgentType.BALL, AgentType.BALL),
    EventType.BALL_LINEAR_CUSHION: (AgentType.BALL, AgentType.LINEAR_CUSHION_SEGMENT),
    EventType.BALL_CIRCULAR_CUSHION: (AgentType.BALL, AgentType.CIRCULAR_CUSHION_SEGMENT),
    EventType.BALL_POCKET: (AgentType.BALL, AgentType.POCKET),
    EventType.STICK_BALL: (AgentType.CUE, AgentType.BALL),
    EventType.SPINNING_STATIONARY: (AgentType.BALL,),
    EventType.ROLLING_STATIONARY: (AgentType.BALL,),
    EventType.ROLLING_SPINNING: (AgentType.BALL,),
    EventType.SLIDING_ROLLING: (AgentType.BALL,),
}
# pooltool keeps a state after the event only for balls and pockets (its structuring
# drops any other); it writes none for the others.
_AGENTS_WITH_FINAL = frozenset({AgentType.BALL, AgentType.POCKET})

T = TypeVar("T")


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


_Part = TypeVar("_Part", bound=_Identified)


class ShotDataError(ValueError):
    """A shot's bytes that are not a pooltool system (one line: where, what)."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)


# -- writing ------------------------------------------------------------------------------


def system_to_bytes(system: pt.System) -> bytes:
    """pooltool's own msgpack form of a system, without its continuized history.

    Event times are written as floats: pooltool opens every shot with a null event at
    ``time=0`` (an int), which a reading gives back as ``0.0``. A pocket's balls (a set)
    are written sorted: a set of strings iterates in an order that depends on the
    process's string hashing and on the order the balls went in, so the set read back
    could write them the other way round (one example in some thirty hash seeds of the
    fuzz test did). So the bytes of a system read back pack to themselves,
    ``system_to_bytes(system_from_bytes(b)) == b``, and the physics worker's bytes, kept
    with its shot, are the bytes a save of the system the window read back would write."""
    copy = system.copy()
    for ball in copy.balls.values():
        ball.history_cts = pt.objects.BallHistory()
    data = pt.serialize.conversion.converters[pt.serialize.SerializeFormat.MSGPACK].unstructure(
        copy
    )
    for pocket in data["table"]["pockets"].values():
        pocket["contains"] = sorted(pocket["contains"])
    for event in data["events"]:
        event["time"] = float(event["time"])
        for agent in event["agents"]:
            for part in ("initial", "final"):
                if agent[part] is not None and "contains" in agent[part]:  # a pocket
                    agent[part]["contains"] = sorted(agent[part]["contains"])
    packed: bytes = msgpack.packb(data, default=encode_array)
    return packed


def encode_array(value: Any) -> Any:
    """msgpack-numpy's form of a numeric array or scalar (never an object array)."""
    if isinstance(value, np.ndarray) and value.dtype.str in _NUMERIC_DTYPES:
        array = np.ascontiguousarray(value)
        return {
            b"nd": True,
            b"type": array.dtype.str,
            b"kind": b"",
            b"shape": array.shape,
            b"data": array.tobytes(),
        }
    if isinstance(value, np.bool_ | np.number) and value.dtype.str in _NUMERIC_DTYPES:
        return {b"nd": False, b"type": value.dtype.str, b"data": value.tobytes()}
    raise TypeError(f"cannot store {type(value).__name__} in a game file")


def decode_array(obj: dict[Any, Any]) -> Any:
    """msgpack-numpy's form of a numeric array or scalar, decoded; other maps as they are.
    ValueError for anything that is not a numeric array or scalar of the right size."""
    if b"nd" not in obj:
        return obj
    dtype = obj.get(b"type")
    if isinstance(dtype, bytes):
        dtype = dtype.decode("ascii", "replace")
    if dtype not in _NUMERIC_DTYPES or obj.get(b"kind", b"") != b"":
        raise ValueError(f"unsupported array type {dtype!r} in a shot file")
    data = obj.get(b"data")
    if not isinstance(data, bytes):
        raise ValueError("an array without data in a shot file")
    if obj[b"nd"] is True:
        shape = tuple(obj.get(b"shape", ()))
        if not all(isinstance(n, int) and 0 <= n < 2**24 for n in shape):
            raise ValueError("a malformed array shape in a shot file")
        return np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape).copy()
    scalar = np.dtype(dtype)
    if len(data) != scalar.itemsize:
        raise ValueError(f"a number of {len(data)} bytes in a shot file")
    return np.frombuffer(data, dtype=scalar)[0]


# -- reading ------------------------------------------------------------------------------


def system_from_bytes(data: bytes, shared: SharedParts | None = None) -> pt.System:
    """A system from pooltool's msgpack form (strict; :class:`ShotDataError` if it is not
    one). ``shared``: the frozen parts already built for other shots of the same file."""
    try:
        # Arrays are maps with bytes keys; lists come as tuples (faster to unpack).
        raw = msgpack.unpackb(data, strict_map_key=False, use_list=False)
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        problem = str(error) or type(error).__name__
        raise ShotDataError("", f"not msgpack data ({problem})") from None
    return _SystemReader(shared if shared is not None else SharedParts()).system(raw)


def system_from_json(data: Any) -> pt.System:
    """A system from pooltool's own JSON form (``System.save`` as .json), through
    pooltool's converter: JSON holds nothing to unpickle, and the converter checks the
    types of what it builds (its errors are many kinds of exception: the caller says
    "not a shot" for any)."""
    converter = pt.serialize.conversion.converters[pt.serialize.SerializeFormat.JSON]
    system: pt.System = converter.structure(data, pt.System)
    return system


class SharedParts:
    """The frozen parts of the systems of one file (ball parameters, ball sets,
    orientations, cue specs, cushion segments), each checked and built once, then shared
    as pooltool shares them between copies of a system. A part is found by the exact
    bytes of its raw form (packed again: 0.0 and -0.0 differ, as they must), so a shared
    part is always bit for bit the one the shot holds."""

    def __init__(self) -> None:
        self._parts: dict[tuple[str, bytes], Any] = {}

    def part(self, kind: str, raw: Any, where: str, make: Callable[[Any, str], T]) -> T:
        key = (kind, msgpack.packb(raw))
        part: T | None = self._parts.get(key)
        if part is None:
            part = self._parts[key] = make(raw, where)
        return part


class _SystemReader:
    """Builds one system from its decoded msgpack maps, checking every field.

    Each function gets the path of the object it reads and names a field only when it
    refuses it: building the names of every field up front would cost more than the
    reading does."""

    def __init__(self, shared: SharedParts) -> None:
        self.shared = shared

    def system(self, raw: Any) -> pt.System:
        fields = _fields(raw, "", _SYSTEM_KEYS)
        balls = _keyed_by_id(fields["balls"], "balls", self.ball)
        cue = self.cue(fields["cue"], "cue")
        if cue.cue_ball_id not in balls:
            raise ShotDataError("cue.cue_ball_id", f"no ball {cue.cue_ball_id!r} in the system")
        sizes = {(ball.params.m, ball.params.R) for ball in balls.values()}
        if len(sizes) > 1:  # pooltool's own limit (its ball-ball physics)
            raise ShotDataError("balls", "balls of different masses or radii")
        return pt.System(
            cue=cue,
            table=self.table(fields["table"], "table"),
            balls=balls,
            t=_time(fields["t"], "", "t"),
            events=self.events(fields["events"], "events"),
        )

    # -- the cue ----------------------------------------------------------------------

    def cue(self, raw: Any, where: str) -> pt.Cue:
        fields = _fields(raw, where, _CUE_KEYS)
        return pt.Cue(
            id=_string(fields["id"], where, "id"),
            cue_ball_id=_string(fields["cue_ball_id"], where, "cue_ball_id"),
            specs=self.shared.part("specs", fields["specs"], f"{where}.specs", _cue_specs),
            **{key: _number(fields[key], where, key) for key in _CUE_NUMBERS},
        )

    # -- the table ----------------------------------------------------------------------

    def table(self, raw: Any, where: str) -> pt.Table:
        fields = _fields(raw, where, _TABLE_KEYS)
        model = fields["model_descr"]
        return pt.Table(
            # Every shot of a game is on the same table: its segments are built once.
            cushion_segments=self.cushion_segments(
                fields["cushion_segments"], f"{where}.cushion_segments"
            ),
            pockets=_keyed_by_id(fields["pockets"], f"{where}.pockets", _pocket),
            table_type=_member(fields["table_type"], where, "table_type", _TABLE_TYPES),
            model_descr=(
                None
                if model is None
                else self.shared.part("model", model, f"{where}.model_descr", _table_model)
            ),
            height=_number(fields["height"], where, "height"),
            lights_height=_number(fields["lights_height"], where, "lights_height"),
        )

    def cushion_segments(self, raw: Any, where: str) -> pt.objects.CushionSegments:
        linear, circular = self.shared.part("segments", raw, where, self._segment_maps)
        # A new collection (pooltool's copies share the frozen segments, not the maps).
        return pt.objects.CushionSegments(linear=dict(linear), circular=dict(circular))

    def _segment_maps(
        self, raw: Any, where: str
    ) -> tuple[
        dict[str, pt.objects.LinearCushionSegment], dict[str, pt.objects.CircularCushionSegment]
    ]:
        fields = _fields(raw, where, _SEGMENTS_KEYS)
        return (
            _keyed_by_id(fields["linear"], f"{where}.linear", self.linear_segment),
            _keyed_by_id(fields["circular"], f"{where}.circular", self.circular_segment),
        )

    def linear_segment(self, raw: Any, where: str) -> pt.objects.LinearCushionSegment:
        return self.shared.part("linear", raw, where, _linear_segment)

    def circular_segment(self, raw: Any, where: str) -> pt.objects.CircularCushionSegment:
        return self.shared.part("circular", raw, where, _circular_segment)

    # -- the balls ----------------------------------------------------------------------

    def ball(self, raw: Any, where: str) -> pt.Ball:
        fields = _fields(raw, where, _BALL_KEYS)
        history, history_cts = fields["history"], fields["history_cts"]
        # What a ball is made of is the same for (nearly) every ball: one look-up.
        params, ballset, orientation = self.shared.part(
            "ball",
            (fields["params"], fields["ballset"], fields["initial_orientation"]),
            where,
            _ball_make,
        )
        return pt.Ball(
            id=_string(fields["id"], where, "id"),
            state=_state(fields["state"], where),
            params=params,
            ballset=ballset,
            initial_orientation=orientation,
            history=(
                pt.objects.BallHistory()
                if history is None
                else _history(history, f"{where}.history")
            ),
            history_cts=(
                pt.objects.BallHistory()
                if history_cts is None
                else _history(history_cts, f"{where}.history_cts")
            ),
        )

    # -- the events ---------------------------------------------------------------------

    def events(self, raw: Any, where: str) -> list[pt.events.Event]:
        if type(raw) is not tuple:
            raise ShotDataError(where, f"expected a list, got {_kind(raw)}")
        events = [self.event(event, item(where, index)) for index, event in enumerate(raw)]
        for index, (before, after) in enumerate(itertools.pairwise(events), start=1):
            if after.time < before.time:
                raise ShotDataError(at(item(where, index), "time"), "earlier than the event before")
        return events

    def event(self, raw: Any, where: str) -> pt.events.Event:
        fields = _fields(raw, where, _EVENT_KEYS)
        kind = _member(fields["event_type"], where, "event_type", _EVENT_TYPES)
        agents = fields["agents"]
        expected = _AGENTS_OF_EVENT[kind]
        if type(agents) is not tuple or len(agents) != len(expected):
            raise ShotDataError(f"{where}.agents", f"a {kind} event has {len(expected)} agent(s)")
        return pt.events.Event(
            event_type=kind,
            agents=tuple(
                self.agent(agent, item(at(where, "agents"), index), agent_type)
                for index, (agent, agent_type) in enumerate(zip(agents, expected, strict=True))
            ),
            time=_time(fields["time"], where, "time"),
        )

    def agent(self, raw: Any, where: str, expected: Any) -> pt.events.Agent:
        fields = _fields(raw, where, _AGENT_KEYS)
        agent_type = _member(fields["agent_type"], where, "agent_type", _AGENT_TYPES)
        if agent_type is not expected:
            raise ShotDataError(f"{where}.agent_type", f"expected {expected}, got {agent_type}")
        initial, final = fields["initial"], fields["final"]
        if agent_type is AgentType.NULL and initial is not None:
            raise ShotDataError(f"{where}.initial", "a null agent has no state")
        if agent_type not in _AGENTS_WITH_FINAL and final is not None:
            raise ShotDataError(f"{where}.final", f"a {agent_type} agent keeps no final state")
        return pt.events.Agent(
            id=_string(fields["id"], where, "id"),
            agent_type=agent_type,
            initial=(
                None if initial is None else self.agent_state(agent_type, initial, where, "initial")
            ),
            final=None if final is None else self.agent_state(agent_type, final, where, "final"),
        )

    def agent_state(self, agent_type: Any, raw: Any, where: str, which: str) -> Any:
        """The agent's object before or after the event (a copy of a ball, a pocket...)."""
        where = f"{where}.{which}"
        if agent_type is AgentType.BALL:
            return self.ball(raw, where)
        if agent_type is AgentType.POCKET:
            return _pocket(raw, where)
        if agent_type is AgentType.CUE:
            return self.cue(raw, where)
        if agent_type is AgentType.LINEAR_CUSHION_SEGMENT:
            return self.linear_segment(raw, where)
        return self.circular_segment(raw, where)


# -- parts --------------------------------------------------------------------------------


def _state(raw: Any, ball: str) -> pt.objects.BallState:
    if type(raw) is not dict or raw.keys() != _STATE_KEYS:
        _refuse_fields(raw, f"{ball}.state", _STATE_KEYS)
    motion = raw["s"]
    if type(motion) is not int or motion not in _MOTION_STATES:
        raise ShotDataError(f"{ball}.state.s", f"not a pooltool motion state (0 to 4): {motion!r}")
    return pt.objects.BallState(
        rvw=_matrix(raw["rvw"], ball),
        s=motion,
        t=_time(raw["t"], f"{ball}.state", "t"),
    )


def _matrix(raw: Any, ball: str) -> np.ndarray:
    """A ball's rvw: a 3 x 3 array of finite numbers, a writable array of its own."""
    data = _array_data(raw, f"{ball}.state.rvw", (3, 3))
    # Faster than numpy's checks on an array this small: a NaN or an infinity makes the
    # sum NaN or infinite (so would numbers near 1e308, absurd here as well).
    if not math.isfinite(sum(_NINE_NUMBERS.unpack(data))):
        raise ShotDataError(f"{ball}.state.rvw", "not all finite numbers")
    return np.ndarray((3, 3), _FLOAT64, data).copy()


def _history(raw: Any, where: str) -> pt.objects.BallHistory:
    """A ball's history from pooltool's vectorized form: ``[rvws, motion states, times]``.
    Like pooltool's, its states share one rvw array."""
    if type(raw) is not tuple or len(raw) != 3:
        raise ShotDataError(where, "expected [rvws, motion states, times]")
    count = _length(raw[0])
    rvws = _array(raw[0], f"{where}[0]", (count, 3, 3))
    motions = _floats(raw[1], f"{where}[1]", count)
    if not _MOTION_STATES.issuperset(motions):  # whole numbers only: 2.0 is in, 2.5 is not
        raise ShotDataError(f"{where}[1]", "not a pooltool motion state (0 to 4)")
    times = _floats(raw[2], f"{where}[2]", count)
    # In order, from 0 or later, and the last finite: then all are (NaN is never in order).
    if count and not (
        times[0] >= 0
        and math.isfinite(times[-1])
        and all(before <= after for before, after in itertools.pairwise(times))
    ):
        raise ShotDataError(f"{where}[2]", "times must start at 0 or later and never go back")
    # BallState makes each motion state an int, as pooltool's own reading does.
    return pt.objects.BallHistory(
        states=[
            pt.objects.BallState(rvw=rvw, s=s, t=t)
            for rvw, s, t in zip(rvws, motions, times, strict=True)
        ]
    )


def _ball_make(
    raw: tuple[Any, Any, Any], ball: str
) -> tuple[pt.objects.BallParams, pt.objects.BallSet | None, pt.objects.BallOrientation]:
    """A ball's frozen parts: parameters, ball set, initial orientation."""
    params, ballset, orientation = raw
    return (
        _ball_params(params, ball),
        None if ballset is None else _ballset(ballset, ball),
        _orientation(orientation, ball),
    )


def _ball_params(raw: Any, ball: str) -> pt.objects.BallParams:
    where = f"{ball}.params"
    fields = _fields(raw, where, _PARAMS_KEYS)
    try:
        return pt.objects.BallParams(
            **{key: _number(fields[key], where, key) for key in _PARAMS_NUMBERS}
        )
    except ValueError as error:  # pooltool's own check: frictions are positive
        raise ShotDataError(where, str(error)) from None


def _ballset(raw: Any, ball: str) -> pt.objects.BallSet:
    where = f"{ball}.ballset"
    name = _string(_fields(raw, where, _NAME_KEYS)["name"], where, "name")
    # Only the ball sets pooltool ships (it would look any name up on the disk).
    if name not in pt.objects.get_ballset_names():
        raise ShotDataError(f"{where}.name", f"unknown ball set {name!r}")
    return pt.objects.get_ballset(name)


def _orientation(raw: Any, ball: str) -> pt.objects.BallOrientation:
    where = f"{ball}.initial_orientation"
    fields = _fields(raw, where, _ORIENTATION_KEYS)
    return pt.objects.BallOrientation(
        pos=_quaternion(fields["pos"], where, "pos"),
        sphere=_quaternion(fields["sphere"], where, "sphere"),
    )


def _cue_specs(raw: Any, where: str) -> pt.objects.CueSpecs:
    fields = _fields(raw, where, _SPECS_KEYS)
    return pt.objects.CueSpecs(
        brand=_string(fields["brand"], where, "brand"),
        **{key: _number(fields[key], where, key) for key in _SPECS_NUMBERS},
    )


def _table_model(raw: Any, where: str) -> pt.objects.TableModelDescr:
    name = _string(_fields(raw, where, _NAME_KEYS)["name"], where, "name")
    return pt.objects.TableModelDescr(name=name)


def _pocket(raw: Any, where: str) -> pt.objects.Pocket:
    fields = _fields(raw, where, _POCKET_KEYS)
    center = _array(fields["center"], f"{where}.center", (3,))
    if center[2] != 0:
        raise ShotDataError(f"{where}.center", "a pocket's centre is at height 0")
    contains = fields["contains"]
    if type(contains) is not tuple:
        raise ShotDataError(f"{where}.contains", f"expected a list, got {_kind(contains)}")
    return pt.objects.Pocket(
        id=_string(fields["id"], where, "id"),
        center=center,
        radius=_positive(fields["radius"], where, "radius"),
        depth=_number(fields["depth"], where, "depth"),
        contains={_string(ball, where, "contains") for ball in contains},
    )


def _linear_segment(raw: Any, where: str) -> pt.objects.LinearCushionSegment:
    fields = _fields(raw, where, _LINEAR_KEYS)
    p1 = _array(fields["p1"], f"{where}.p1", (3,))
    p2 = _array(fields["p2"], f"{where}.p2", (3,))
    if p1[2] != p2[2]:
        raise ShotDataError(where, "a cushion segment's ends are at one height")
    direction = fields["direction"]
    if type(direction) is not int or direction not in _CUSHION_DIRECTIONS:
        raise ShotDataError(f"{where}.direction", f"not a cushion direction: {direction!r}")
    return pt.objects.LinearCushionSegment(
        id=_string(fields["id"], where, "id"), p1=p1, p2=p2, direction=direction
    )


def _circular_segment(raw: Any, where: str) -> pt.objects.CircularCushionSegment:
    fields = _fields(raw, where, _CIRCULAR_KEYS)
    return pt.objects.CircularCushionSegment(
        id=_string(fields["id"], where, "id"),
        center=_array(fields["center"], f"{where}.center", (3,)),
        radius=_positive(fields["radius"], where, "radius"),
    )


def _keyed_by_id(raw: Any, where: str, make: Callable[[Any, str], _Part]) -> dict[str, _Part]:
    """A map of objects by id (pooltool requires each key to be its object's id)."""
    if type(raw) is not dict:
        raise ShotDataError(where, f"expected a map, got {_kind(raw)}")
    objects = {}
    for key, value in raw.items():
        if type(key) is not str:
            raise ShotDataError(where, f"expected ids as keys, got {key!r}")
        part = make(value, f"{where}[{key!r}]")
        if part.id != key:
            raise ShotDataError(f"{where}[{key!r}].id", f"{part.id!r} under another id")
        objects[key] = part
    return objects


# -- fields -------------------------------------------------------------------------------


def _fields(raw: Any, where: str, keys: frozenset[str]) -> dict[str, Any]:
    """``raw`` as a map with exactly ``keys``."""
    if type(raw) is not dict or raw.keys() != keys:
        _refuse_fields(raw, where, keys)
    return raw


def _refuse_fields(raw: Any, where: str, keys: frozenset[str]) -> NoReturn:
    if type(raw) is not dict or b"nd" in raw:
        raise ShotDataError(where, f"expected a map, got {_kind(raw)}")
    # Keys of any type (msgpack's maps are not JSON's): the first unknown one by its repr.
    unknown = sorted(repr(key) for key in raw.keys() - keys)
    if unknown:
        raise ShotDataError(where, f"unknown key {unknown[0]}")
    raise ShotDataError(where, f"missing {missing_key(raw, keys)!r}")


def _string(raw: Any, where: str, key: str) -> str:
    if type(raw) is not str:
        raise ShotDataError(at(where, key), f"expected a string, got {_kind(raw)}")
    return raw


def _number(raw: Any, where: str, key: str) -> float:
    """A finite number, as a float (pooltool writes some floats as whole numbers)."""
    if type(raw) is float:
        if math.isfinite(raw):
            return raw
        raise ShotDataError(at(where, key), f"not a finite number: {raw!r}")
    if type(raw) is int:
        return float(raw)
    if type(raw) is dict and raw.get(b"nd") is False:  # a numpy scalar
        return _number(_scalar(raw, at(where, key)), where, key)
    raise ShotDataError(at(where, key), f"expected a number, got {_kind(raw)}")


def _positive(raw: Any, where: str, key: str) -> float:
    value = _number(raw, where, key)
    if value <= 0:
        raise ShotDataError(at(where, key), f"must be positive, got {value!r}")
    return value


def _time(raw: Any, where: str, key: str) -> float:
    value = _number(raw, where, key)
    if value < 0:
        raise ShotDataError(at(where, key), f"a time cannot be negative, got {value!r}")
    return value


def _quaternion(raw: Any, where: str, key: str) -> tuple[float, float, float, float]:
    if type(raw) is not tuple or len(raw) != 4:
        raise ShotDataError(at(where, key), "expected four numbers")
    a, b, c, d = (_number(value, where, key) for value in raw)
    return (a, b, c, d)


def _member(raw: Any, where: str, key: str, members: dict[str, T]) -> T:
    """An enum member from its value."""
    member = members.get(raw) if type(raw) is str else None
    if member is None:
        raise ShotDataError(at(where, key), f"unknown value {raw!r}")
    return member


def _array_data(raw: Any, where: str, shape: tuple[int, ...]) -> bytes:
    """The bytes of a float64 array of ``shape`` in msgpack-numpy's map."""
    if (
        type(raw) is not dict
        or raw.keys() != _ARRAY_KEYS
        or raw[b"nd"] is not True
        or raw[b"type"] != "<f8"
        or raw[b"kind"] != b""
        or raw[b"shape"] != shape
    ):
        _refuse_array(raw, where, shape)
    data = raw[b"data"]
    if type(data) is not bytes or len(data) != _FLOAT64.itemsize * math.prod(shape):
        raise ShotDataError(where, "the array's data does not fit its shape")
    return data


def _refuse_array(raw: Any, where: str, shape: tuple[int, ...]) -> NoReturn:
    if type(raw) is not dict or raw.get(b"nd") is not True:
        raise ShotDataError(where, f"expected an array, got {_kind(raw)}")
    if raw.keys() != _ARRAY_KEYS:
        raise ShotDataError(where, "a malformed array")
    if raw[b"type"] != "<f8" or raw[b"kind"] != b"":
        raise ShotDataError(where, f"unsupported array type {raw[b'type']!r} (numbers only)")
    sizes = " x ".join("N" if n < 0 else str(n) for n in shape)  # N: a length it lacks
    wanted = f"a {sizes} array" if len(shape) > 1 else f"{sizes} numbers"
    stored = raw[b"shape"]
    shown = list(stored) if type(stored) is tuple else stored
    raise ShotDataError(where, f"expected {wanted}, got an array of shape {shown!r}")


def _length(raw: Any) -> int:
    """The length an array claims (checked when it is read), or -1 if it claims none."""
    shape = raw.get(b"shape") if type(raw) is dict else None
    if type(shape) is tuple and shape and type(shape[0]) is int and 0 <= shape[0] <= _MAX_STATES:
        return shape[0]
    return -1


def _array(raw: Any, where: str, shape: tuple[int, ...]) -> np.ndarray:
    """A float64 array of finite numbers of ``shape``, a writable array of its own (never
    a view of the file's bytes)."""
    data = _array_data(raw, where, shape)
    array = np.ndarray(shape, _FLOAT64, data).copy()
    if not np.isfinite(array).all():
        raise ShotDataError(where, "not all finite numbers")
    return array


def _floats(raw: Any, where: str, count: int) -> list[float]:
    """A float64 array of ``count`` numbers, as Python floats (checked by the caller)."""
    values: list[float] = np.frombuffer(_array_data(raw, where, (count,)), _FLOAT64).tolist()
    return values


def _scalar(raw: dict[Any, Any], where: str) -> Any:
    try:
        value = decode_array(raw)
    except ValueError as error:
        raise ShotDataError(where, str(error)) from None
    return value.item() if isinstance(value, np.generic) else value


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if type(value) is dict:
        return "an array" if b"nd" in value else "a map"
    if type(value) is tuple:  # msgpack's lists, as unpacked here
        return "a list"
    return type(value).__name__
