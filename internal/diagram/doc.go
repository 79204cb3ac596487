// Package diagram reads and writes interactions as the sequence diagrams
// teams already keep: Mermaid sequenceDiagrams (which GitHub and GitLab
// render in Markdown) and PlantUML sequence diagrams, in files of their
// own or in the blocks of a Markdown document. The package spec loads a
// diagram as a specification (alone, or as the interaction beside a .hsf);
// ivc draw --format mermaid|plantuml and ivc fmt --to hif use the writers
// and the derived signature.
//
//	d, err := diagram.Read("design.md#checkout-flow", src, diagram.Options{})
//	sf := d.SigFile()                      // lifelines, messages, gates, with positions
//	sig, warnings, err := sf.Signature(d.File)
//	t, err := interaction.NewStore(sig).Resolve(d.File, d.Root)
//
//	mmd := diagram.FormatMermaid(sp.Sig, sp.Syntax, "abp") // reads back as sp.Root
//
// # Reading
//
// Read takes a file's name and content. The name's extension says what it
// holds (Extensions): a Mermaid diagram, PlantUML's @startuml blocks, or a
// Markdown file's ```mermaid and ```plantuml blocks; a #selector after it
// chooses one of several, by number or by the GitHub anchor of the heading
// above it (source.go). Both notations are read into one builder
// (build.go), which turns statements into an interaction.Node over the
// participants' ids: the diagram and each fragment's operands are weakly
// sequenced (seq), alt/else is alt, opt is alt with ∅, par is par, loop is
// loopW, break is an alt of its body and the rest of its operand,
// critical is an alt of its region and options (with a warning), rect and
// group are their bodies; a self-message is a note (with a warning) unless
// Options.SelfMessages. Every arrow is a message named by its text; its
// kind is kept (Diagram.Messages: a dashed arrow or a return is a Reply)
// for the readers of traces, whose concern is how a reply meets a span.
// Errors are *syntax.Error values at the file's own line:col.
//
// # Annotations
//
// Comments that start with "ivc:" (%% ivc: strict, ' ivc: loopS) carry what
// the notations lack — strict, coreg, sync, the loop kinds, <synch>
// messages, broadcasts, gates, the environment, messages no arrow uses —
// so that the writers' output reads back as the interaction written
// (annotation.go; docs/diagrams.md has the table).
//
// # Writing
//
// FormatMermaid and FormatPlantUML write an interaction's syntax tree over
// its signature, with one tree walk (write.go) and what differs per
// notation in a table (write_mermaid.go, write_plantuml.go).
package diagram
