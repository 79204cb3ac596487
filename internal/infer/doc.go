// Package infer drafts an interaction from sessions known to be right: the
// work of ivc infer, whose driver (cmd/ivc) only maps its flags and prints.
//
//	d, err := infer.Infer(files, infer.Config{Source: newSource}) // nil Sig: names from the logs
//	files, err := d.Files("draft.mmd")                           // or .md, .puml, .hif (+ .hsf)
//	unfit, sum, err := d.Check(files, jobs)                      // accept mode, every session
//
// The sessions are read by a session.Source (the readers of ivc analyze, so
// events are named by their rule); without a signature, a first pass learns
// the names the events carry (names). Each session becomes its message
// sequence chart, linearized into a word of arrows (shape.go): receptions
// matched with earlier emissions of their message, the rest messages from
// or to the environment, crossing messages split into their ends. Words
// are folded (repeated blocks into loopW, each loop's body generalized into
// the loop in every word) and merged (merge.go): common prefixes and
// suffixes once around an alt of what differs, grouped by first arrow,
// alts bounded by Config.MaxBranches. The draft's operands are weakly
// sequenced, so it orders events of different lifelines only through
// messages. docs/infer.md tells the user.
//
// The draft is written by internal/diagram's writers (Mermaid, PlantUML)
// or as HIBOU files, and Check loads it back from that text and judges
// every session against it with package check, in accept mode, before the
// driver writes it.
package infer
