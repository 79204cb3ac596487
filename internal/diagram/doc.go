// Package diagram reads and writes interactions as the sequence diagrams
// teams already keep: Mermaid sequenceDiagram text (which GitHub and GitLab
// render in Markdown) and PlantUML sequence diagrams.
//
//	mmd := diagram.FormatMermaid(sp.Sig, sp.Syntax, "abp")
//
// The package spec loads a diagram as a specification; ivc draw --format
// mermaid writes one.
package diagram
