// Package spec loads a specification — a signature and an interaction — from
// HIBOU files: a .hsf signature with the .hif interaction beside it (or given
// explicitly), or a legacy single-file .hsf that holds both, with its option
// sections.
//
//	sp, err := spec.Load("abp.hsf", "") // reads abp.hsf and abp.hif
//	a := rewrite.New(sp.Store, sp.Root, rewrite.DefaultOptions())
//
// Reading a file and wording the errors about it is syntax's (ReadFile,
// FileError, FileName); the canonical form of a file is format's.
package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hcf"
	"github.com/ivc-project/ivc/syntax"
)

// Spec is a loaded specification.
type Spec struct {
	SigPath string // the .hsf file
	HIFPath string // the .hif file, or SigPath for a legacy single-file .hsf

	Sig     *interaction.Signature
	SigFile *interaction.SigFile
	Store   *interaction.Store
	Root    interaction.Term
	Syntax  *interaction.Node

	// Options holds the option sections of a legacy single-file .hsf
	// (@analyze_option{...} and so on), nil when the .hsf has none.
	Options *hcf.File

	// Warnings lists what is wrong with the files but accepted, as HIBOU
	// accepts it: a message, lifeline or gate declared twice in the
	// signature (the first declaration counts). Each names file:line:col:
	// "abp.hsf:3:9: warning: message d declared twice (first at 2:5)".
	Warnings []error
}

// Load reads the signature at hsf and the interaction at hif. When hif is
// empty, the interaction is taken from a legacy single-file hsf, or else from
// the .hif file of the same name beside hsf.
func Load(hsf, hif string) (*Spec, error) {
	sp, _, err := LoadSource(hsf, hif)
	return sp, err
}

// Source is the text of a specification's files, which Parse loads: a
// driver that reads the files once hands their text to a remote worker.
type Source struct {
	SigName string // the .hsf file
	Sig     []byte
	// HIFName and HIF are the .hif file, empty for a legacy single-file .hsf.
	HIFName string
	HIF     []byte
}

// Parse loads the specification of s, as Parse does.
func (s Source) Parse() (*Spec, error) { return Parse(s.SigName, s.Sig, s.HIFName, s.HIF) }

// LoadSource is Load, and returns the text of the files it read too.
func LoadSource(hsf, hif string) (*Spec, Source, error) {
	src, err := syntax.ReadFile(hsf)
	if err != nil {
		return nil, Source{}, err
	}
	sp, hifSrc, err := load(hsf, src, hif)
	if err != nil {
		return nil, Source{}, err
	}
	s := Source{SigName: hsf, Sig: src}
	if sp.HIFPath != hsf {
		s.HIFName, s.HIF = sp.HIFPath, hifSrc
	}
	return sp, s, nil
}

// load is Load once the signature file is read, and returns the text of
// the .hif it read (nil for a legacy single-file .hsf).
func load(hsf string, src []byte, hif string) (*Spec, []byte, error) {
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
		if hifSrc, err = syntax.ReadFile(hif); err != nil {
			return nil, nil, err
		}
	}
	sp, err := parse(hsf, src, sf, hif, hifSrc)
	return sp, hifSrc, err
}

// Parse loads a specification from the text of its files, as Load does
// from the files: hsf is the name of the signature file (for messages) and
// hsfSrc its text; hif and hifSrc are the interaction's, or empty for a
// legacy single-file .hsf. No file is read.
//
//	sp, err := spec.Parse("abp.hsf", sigText, "abp.hif", hifText)
func Parse(hsf string, hsfSrc []byte, hif string, hifSrc []byte) (*Spec, error) {
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
	return parse(hsf, hsfSrc, sf, hif, hifSrc)
}

// twoInteractions is the error of a legacy single-file .hsf given with a
// .hif.
func twoInteractions(hsf, hif string) error {
	return fmt.Errorf("%s: holds an interaction (legacy single-file .hsf): do not also give %s", syntax.FileName(hsf), syntax.FileName(hif))
}

// parse loads the specification whose signature file hsf (text src) parsed
// as sf, and whose interaction is that of hif (text hifSrc), or sf's own
// when hif is empty.
func parse(hsf string, src []byte, sf *interaction.SigFile, hif string, hifSrc []byte) (*Spec, error) {
	sig, warnings, err := sf.Signature(hsf)
	if err != nil {
		return nil, err
	}
	opts, err := LegacyOptions(hsf, src, sf)
	if err != nil {
		return nil, err
	}
	sp := &Spec{SigPath: hsf, HIFPath: hsf, Sig: sig, SigFile: sf, Store: interaction.NewStore(sig), Options: opts, Warnings: warnings}
	node := sf.Interaction
	if hif != "" {
		if node, err = interaction.ParseHIF(hif, hifSrc); err != nil {
			return nil, err
		}
		sp.HIFPath = hif
	}
	sp.Syntax = node
	if sp.Root, err = sp.Store.Resolve(sp.HIFPath, node); err != nil {
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
