// Package multitrace reads, checks and prints multi-traces: HIBOU .htf files.
// It is for programs that read .htf files or build multi-traces in code to
// judge with package check; logs of real systems (JSON Lines, CSV, traces)
// are read by package logs and gathered into multi-traces by package
// session.
//
// A distributed system is observed as a multi-trace: one local trace, or
// component, per location, where a location is a group of lifelines that
// share a clock. Each event of a local trace is an action l!m
// (emission) or l?m (reception), or a multi-action {a!m,b?m} of actions that
// occur together (the actions of a <synch> message).
//
//	{
//		[a] a!m.a?n;
//		[b,c] c?m.{b!x,c?x};
//		[d] ;
//		[#any] e!y;
//		[#all] f?y
//	}
//
// [#any] stands for the lifelines of the component's actions, [#all] for
// every lifeline that no other component has. A bare global trace a!m.b?m
// is one component over every lifeline, like [#all]. The legacy forms of
// HIBOU ≤ 0.7, without braces, are read too: "[#all] a!m.b?m", and
// components separated by ';' as in "[a] a!m; [b] b?m".
//
// The package works at two levels. Parse checks a file against the syntax
// alone and returns its File, which Format prints in canonical form;
// FormatSource does both at once, keeping the comments, in memory linear in
// the output (this is what `ivc fmt` does). File.Resolve checks the names against a signature
// and returns a MultiTrace: components in file order, each a set of
// lifelines and a trace of sorted multi-actions, followed by one empty
// component for every lifeline the file does not mention. Read and
// ParseResolve do both in one pass, which is faster on long logs:
//
//	sf, err := interaction.ParseHSF("spec.hsf", hsfSrc)
//	if err != nil { ... }
//	sig, warnings, err := sf.Signature("spec.hsf") // warnings: names declared twice
//	if err != nil { ... }
//	mt, err := multitrace.Read("run1.htf", sig)
//	if err != nil {
//		return err // run1.htf:3:9: undeclared message "x" (add it to @message in the signature)
//	}
//	for _, c := range mt.Components {
//		fmt.Println(c.Lifelines.Format(sig), len(c.Trace))
//	}
//
// A file with no multi-trace at all (empty, or only comments) is an error,
// as it is most often a log that was never written: the multi-trace with no
// event is written { }, and gives every lifeline an empty component. (An
// empty .hcf, on the contrary, sets no option and is valid: see the hcf
// package.) A byte order mark at the start of a file is skipped.
//
// Errors are *syntax.Error values that print as file:line:col: message.
// Parsing is linear in the input and never recursive, so any input, however
// large or malformed, ends in a result or an error.
package multitrace
