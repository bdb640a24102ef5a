"""JobCtrl's extension of the ``eventsourcing`` library: our events, our table, our encoding.

The library supplies the machinery (``Application``, ``Repository``, ``EventStore``, snapshot
reconstruction, the recorder/mapper/transcoder/factory extension points).  These modules plug in:

* ``mapper``: ``StreamEvent`` (a registry event at a stream version, the library's domain-event
  protocol), ``MsgspecTranscoder`` and ``JobEventsMapper`` (topic = registry ``eventType``, state =
  camelCase msgspec JSON, upcasting through the registry's ``Upcaster`` chain).
* ``recorder``: ``JobEventsRecorder`` (an ``ApplicationRecorder`` over ``job_events`` through
  ``EventStore``'s atomic, idempotent append) and ``SnapshotRecorder`` (``aggregate_snapshots``).
* ``snapshots``: ``Snapshot`` and the state codec.
* ``factory`` / ``application``: ``JobCtrlInfrastructureFactory`` and ``JobCtrlApplication``.

``jobctrl.kernel.aggregate`` is the API contexts use; it is built on these (ADR 0005).
"""
