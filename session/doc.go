// Package session turns the events that package logs reads into sessions:
// one multi-trace per session id, to judge. It is the consumer of the
// readers (logs.Consumer) and imports logs, never the reverse: logs reads,
// session gathers, so that a reader can be used without the gathering
// (a pipeline's workers scan files, ivc monitor receives live events) and
// the gathering is one mechanism whoever feeds it. ivc analyze, ivc-beam
// and ivc monitor build their sessions here, and package check judges
// them.
//
//	sessions, stats, err := session.Read("app.jsonl", logs.Auto, logs.Options{Sig: sig}, report)
//	for _, s := range sessions {
//		if s.Err != nil { ... }      // this session alone cannot be judged
//		res := checker.Check(s.MT)   // one verdict per session
//	}
//
// A session is one execution of the protocol: the events of one session id
// form one multi-trace, whose components are the locations (groups of
// lifelines that share a clock: logs.Options.Locations). Within a location
// the events are ordered by their order key (logs.Key: a seq, a time, or
// the line order), ties in the order read; across locations nothing orders
// them, which is exactly what a multi-trace says. A location whose events
// mix kinds of keys, or come from several files with line order only, is
// its session's Err (a *syntax.Error naming the file and line), and the
// other sessions are judged. A session starts with its first event, judged
// or ignored; the sessions come in that order.
//
// One gatherer builds every session, whoever feeds it:
//
//   - Read, ReadFrom and ReadInput: the sessions of one log;
//   - Joiner: the sessions of a run, a session being its id across all
//     the logs of the run (Scope: ScopeFile keeps the per-file sessions),
//     in any mix of formats, one log per service, rotated or not. Past a
//     memory budget, it spills to a temporary file, partitioned by session,
//     with the same sessions in the same order;
//   - Assembler: one session from its events gathered elsewhere, in any
//     order (logs.Scan's, moved between the machines of a pipeline in
//     their binary form: AppendEvent, DecodeEvent; or held by ivc
//     monitor's table of live sessions), exactly as Read builds it.
//
// A Session is what the front door judges (check.Checker.Run, Judge),
// with its Meta, which goes on to its record. Two sources hand them out
// with the counts of what their inputs held (Counts):
//
//   - Source: the inputs of a run, .htf multi-traces and logs joined by a
//     Joiner, in order, with the inputs that cannot be read in their
//     place (ivc analyze, ivc draw --session);
//   - Groups: the events of a pipeline's workers gathered by session, as
//     a Scope says what one is, each assembled by an Assembler (ivc-beam's
//     judging step).
//
// # Spans across files
//
// The two spans of one call or message carry one message, the receiving
// side's. logs pairs them within a file; a span left without its partner
// in its file comes with a logs.SpanLink, and the gatherer pairs it at its
// session's assembly with a span of another file of the run, by span ids:
// a SERVER span with its parent CLIENT span, a CONSUMER span with its
// parent or linked PRODUCER span. Whether such a span is an event or
// ignored (its message not declared) is decided then: Joiner.Undeclared
// names the messages that stayed ignored.
//
// # Duplicates
//
// One span counts once, however many times it is read: a span is its id in
// its session (logs.Consumer's span, logs.Event.Span) on its side of its
// call. A session's build (any gatherer: Read, Joiner, spilled or not,
// Assembler) keeps the first copy, drops the others and counts them
// (Meta.Duplicates); a copy with other content is dropped too and named
// with both places in Meta.Conflict, for the driver to report. An event
// log's event whose seq and action its location had is a duplicate too.
// A Source reads a log named twice (os.SameFile) once, with a Note.
//
// # Memory
//
// An event is kept as a 32-byte record until its session is built (and 4
// bytes more to find it in its session once the records are indexed, and
// 8 for a span's id), then as an action and an event of its multi-trace
// (28 bytes); the sessions of a file share a few large arrays.
// logs.Options.MaxMemory bounds the events one session may hold; a
// Joiner's budget bounds what it holds in all, past which it spills.
package session
