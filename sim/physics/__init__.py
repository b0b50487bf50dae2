"""The physics floor: the only importer of pooltool.

Table specs, racks, placing balls and simulating a stroke, pooltool's events turned into
``rules`` facts, the system codec, replay timelines, the warm-up, and the simulators the
table asks for shots (in this process, or in a worker process).
"""
