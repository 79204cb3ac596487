// Package spec loads a specification — a signature and an interaction — from
// HIBOU files: a .hsf signature with the .hif interaction beside it (or given
// explicitly), or a legacy single-file .hsf that holds both, with its option
// sections. A sequence diagram (Mermaid or PlantUML, in its own file or in
// a Markdown document) may stand for the interaction beside a .hsf, or for
// the whole specification, its signature derived from its participants and
// messages:
//
//	sp, err := spec.Load("abp.hsf", "") // reads abp.hsf and abp.hif
//	sp, err = spec.Load("abp.hsf", "design.md#abp") // the interaction of a diagram
//	sp, err = spec.Load("design.md#checkout-flow", "") // a diagram alone
//	c, err := check.New(sp, check.DefaultOptions()) // judge multi-traces and sessions
//
// Reading a file and wording the errors about it is syntax's (ReadFile,
// FileError, FileName); the canonical form of a file is ivc fmt's.
// Programs that embed ivc load their specification here and hand it to
// package check.
package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/diagram"
	"github.com/ivc-project/ivc/internal/hcf"
	"github.com/ivc-project/ivc/syntax"
)

// Spec is a loaded specification.
type Spec struct {
	// SigPath is the .hsf file, or the diagram (with its #selector) of a
	// specification that is a diagram alone.
	SigPath string
	// HIFPath is the .hif file or the diagram of the interaction, or
	// SigPath for a legacy single-file .hsf or a diagram alone.
	HIFPath string

	Sig     *interaction.Signature
	SigFile *interaction.SigFile
	Store   *interaction.Store
	Root    interaction.Term
	Syntax  *interaction.Node

	// Replies maps the message of each call a diagram answers with a
	// reply (a dashed arrow, a PlantUML return) to the message of its
	// reply, both by their names in Sig; nil for a spec that draws none
	// (every HIBOU .hif). The readers of traces turn the end of a call's
	// spans into its reply (logs.Options.Replies).
	Replies map[string]string

	// Options holds the option sections of a legacy single-file .hsf
	// (@analyze_option{...} and so on), nil when the .hsf has none.
	Options *hcf.File

	// Warnings lists what is wrong with the files but accepted, as HIBOU
	// accepts it: a message, lifeline or gate declared twice in the
	// signature (the first declaration counts), and what the reading of a
	// diagram approximated (its self-messages read as notes, a critical
	// region read as alt). Each names file:line:col: "abp.hsf:3:9:
	// warning: message d declared twice (first at 2:5)".
	Warnings []error
}

// Options are the choices of loading a specification that its files do
// not make.
type Options struct {
	// SelfMessages reads the self-messages of a diagram (A->>A: work) as
	// messages A -- work -> A, whose two actions traces must then hold,
	// rather than as notes, which traces hold no event for.
	SelfMessages bool
}

// Load reads the signature at hsf and the interaction at hif. When hif is
// empty, the interaction is taken from a legacy single-file hsf, or else from
// the .hif file of the same name beside hsf.
//
// A diagram may stand for the .hif (a .hsf and a diagram), or for both (a
// diagram alone, hif empty): a file whose extension diagram.Extensions
// lists (.mmd, .mermaid, .puml, .plantuml, .md), with a #selector when it
// holds several diagrams (design.md#checkout-flow, design.md#2).
func Load(hsf, hif string) (*Spec, error) { return Options{}.Load(hsf, hif) }

// Load is the package's Load with the options o.
func (o Options) Load(hsf, hif string) (*Spec, error) {
	sp, _, err := o.LoadSource(hsf, hif)
	return sp, err
}

// IsDiagram reports whether path names a sequence diagram (by its
// extension, before any #selector), which Load takes in place of a .hif,
// or of both files.
func IsDiagram(path string) bool { return diagram.IsDiagram(path) }

// readFile reads the file of path, without the #selector of a diagram's.
func readFile(path string) ([]byte, error) {
	file, _ := diagram.SplitSelector(path)
	return syntax.ReadFile(file)
}

// Source is the text of a specification's files, which Parse loads: a
// driver that reads the files once hands their text to a remote worker.
type Source struct {
	SigName string // the .hsf file, or a diagram alone
	Sig     []byte
	// HIFName and HIF are the .hif file (or diagram), empty for a legacy
	// single-file .hsf or a diagram alone.
	HIFName string
	HIF     []byte
	// Options are those the files were loaded with.
	Options Options
}

// Parse loads the specification of s, as Parse does.
func (s Source) Parse() (*Spec, error) { return s.Options.Parse(s.SigName, s.Sig, s.HIFName, s.HIF) }

// LoadSource is Load, and returns the text of the files it read too.
func LoadSource(hsf, hif string) (*Spec, Source, error) { return Options{}.LoadSource(hsf, hif) }

// LoadSource is the package's LoadSource with the options o.
func (o Options) LoadSource(hsf, hif string) (*Spec, Source, error) {
	src, err := readFile(hsf)
	if err != nil {
		return nil, Source{}, err
	}
	sp, hifSrc, err := o.load(hsf, src, hif)
	if err != nil {
		return nil, Source{}, err
	}
	s := Source{SigName: hsf, Sig: src, Options: o}
	if sp.HIFPath != hsf {
		s.HIFName, s.HIF = sp.HIFPath, hifSrc
	}
	return sp, s, nil
}

// load is Load once the signature file is read, and returns the text of
// the .hif it read (nil for a legacy single-file .hsf or a diagram alone).
func (o Options) load(hsf string, src []byte, hif string) (*Spec, []byte, error) {
	if diagram.IsDiagram(hsf) {
		if hif != "" {
			return nil, nil, diagramWithHIF(hsf, hif)
		}
		sp, err := o.parseDiagram(hsf, src)
		return sp, nil, err
	}
	sf, err := interaction.ParseHSF(hsf, src)
	if err != nil {
		return nil, nil, err
	}
	var hifSrc []byte
	switch {
	case hif != "":
		if sf.Interaction != nil {
			return nil, nil, twoInteractions(hsf, hif)
		}
	case sf.Interaction != nil:
	default:
		hif = strings.TrimSuffix(hsf, filepath.Ext(hsf)) + ".hif"
		if _, err := os.Stat(hif); errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s: no interaction: give a .hif file (none found at %s)", syntax.FileName(hsf), syntax.FileName(hif))
		}
	}
	if hif != "" {
		if hifSrc, err = readFile(hif); err != nil {
			return nil, nil, err
		}
	}
	sp, err := o.parse(hsf, src, sf, hif, hifSrc)
	return sp, hifSrc, err
}

// Parse loads a specification from the text of its files, as Load does
// from the files: hsf is the name of the signature file (for messages) and
// hsfSrc its text; hif and hifSrc are the interaction's, or empty for a
// legacy single-file .hsf. No file is read.
//
//	sp, err := spec.Parse("abp.hsf", sigText, "abp.hif", hifText)
//
// A diagram's name (see Load) is read as a diagram.
func Parse(hsf string, hsfSrc []byte, hif string, hifSrc []byte) (*Spec, error) {
	return Options{}.Parse(hsf, hsfSrc, hif, hifSrc)
}

// Parse is the package's Parse with the options o.
func (o Options) Parse(hsf string, hsfSrc []byte, hif string, hifSrc []byte) (*Spec, error) {
	if diagram.IsDiagram(hsf) {
		if hif != "" {
			return nil, diagramWithHIF(hsf, hif)
		}
		return o.parseDiagram(hsf, hsfSrc)
	}
	sf, err := interaction.ParseHSF(hsf, hsfSrc)
	if err != nil {
		return nil, err
	}
	switch {
	case hif != "" && sf.Interaction != nil:
		return nil, twoInteractions(hsf, hif)
	case hif == "" && sf.Interaction == nil:
		return nil, fmt.Errorf("%s: no interaction: give a .hif file", syntax.FileName(hsf))
	}
	return o.parse(hsf, hsfSrc, sf, hif, hifSrc)
}

// diagramWithHIF is the error of a diagram given with an interaction.
func diagramWithHIF(d, hif string) error {
	return fmt.Errorf("%s: a diagram alone is a whole specification: do not also give %s (to check a diagram against a signature of your own, give the .hsf first)", syntax.FileName(d), syntax.FileName(hif))
}

// parseDiagram loads a diagram alone, the signature its own.
func (o Options) parseDiagram(name string, src []byte) (*Spec, error) {
	d, err := diagram.Read(name, src, diagram.Options{SelfMessages: o.SelfMessages})
	if err != nil {
		return nil, err
	}
	sf := d.SigFile()
	sig, warnings, err := sf.Signature(d.File)
	if err != nil {
		return nil, err
	}
	sp := &Spec{SigPath: name, HIFPath: name, Sig: sig, SigFile: sf, Store: interaction.NewStore(sig), Syntax: d.Root,
		Warnings: append(d.Warnings, warnings...)}
	if sp.Root, err = sp.Store.Resolve(d.File, d.Root); err != nil {
		return nil, err
	}
	sp.Replies = replies(d, sig)
	return sp, nil
}

// replies returns the replies of d by the names of sig.
func replies(d *diagram.Diagram, sig *interaction.Signature) map[string]string {
	var out map[string]string
	for call, reply := range d.Replies() {
		c, cok := sig.Message(call)
		r, rok := sig.Message(reply)
		if cok && rok {
			if out == nil {
				out = map[string]string{}
			}
			out[sig.Messages[c]] = sig.Messages[r]
		}
	}
	return out
}

// twoInteractions is the error of a legacy single-file .hsf given with a
// .hif.
func twoInteractions(hsf, hif string) error {
	return fmt.Errorf("%s: holds an interaction (legacy single-file .hsf): do not also give %s", syntax.FileName(hsf), syntax.FileName(hif))
}

// parse loads the specification whose signature file hsf (text src) parsed
// as sf, and whose interaction is that of hif (text hifSrc: a .hif or a
// diagram), or sf's own when hif is empty.
func (o Options) parse(hsf string, src []byte, sf *interaction.SigFile, hif string, hifSrc []byte) (*Spec, error) {
	sig, warnings, err := sf.Signature(hsf)
	if err != nil {
		return nil, err
	}
	opts, err := LegacyOptions(hsf, src, sf)
	if err != nil {
		return nil, err
	}
	sp := &Spec{SigPath: hsf, HIFPath: hsf, Sig: sig, SigFile: sf, Store: interaction.NewStore(sig), Options: opts, Warnings: warnings}
	node, file := sf.Interaction, hsf
	switch {
	case diagram.IsDiagram(hif):
		d, err := diagram.Read(hif, hifSrc, diagram.Options{SelfMessages: o.SelfMessages})
		if err != nil {
			return nil, err
		}
		d.Bind(sig)
		node, file, sp.HIFPath = d.Root, d.File, hif
		sp.Replies = replies(d, sig)
		sp.Warnings = append(sp.Warnings, d.Warnings...)
	case hif != "":
		if node, err = interaction.ParseHIF(hif, hifSrc); err != nil {
			return nil, err
		}
		file, sp.HIFPath = hif, hif
	}
	sp.Syntax = node
	if sp.Root, err = sp.Store.Resolve(file, node); err != nil {
		return nil, err
	}
	return sp, nil
}

// LegacyOptions parses the option sections of a legacy single-file .hsf,
// whose source is src and syntax sf. It returns nil when there are none, and
// an error naming file:line:col for a bad or repeated section.
func LegacyOptions(file string, src []byte, sf *interaction.SigFile) (*hcf.File, error) {
	if len(sf.Options) == 0 {
		return nil, nil
	}
	f := &hcf.File{}
	for _, o := range sf.Options {
		sec, err := hcf.ParseSection(file, src, o.Start)
		if err != nil {
			return nil, err
		}
		if c := o.Comments; c != nil {
			// The comments around the section, which the .hsf parser
			// kept; hcf kept those inside it.
			if sec.Comments == nil {
				sec.Comments = &syntax.Comments{}
			}
			sec.Comments.Before = append(c.Before, sec.Comments.Before...)
			sec.Comments.After = append(sec.Comments.After, c.After...)
			sec.Comments.Below = append(sec.Comments.Below, c.Below...)
		}
		if first := f.Section(sec.Kind); first != nil {
			return nil, fmt.Errorf("%s:%s: @%s given twice (first at %s)", syntax.FileName(file), sec.Pos, sec.Kind, first.Pos)
		}
		f.Sections = append(f.Sections, sec)
	}
	return f, nil
}
