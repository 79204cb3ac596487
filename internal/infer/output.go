package infer

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/diagram"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// Outputs are the extensions of the files a draft is written to.
var Outputs = []string{".mmd", ".mermaid", ".md", ".puml", ".plantuml", ".hif"}

// A File is a file of a draft: its path and its content.
type File struct {
	Path string
	Data []byte
}

// Paths returns the files a draft written at path makes (path, and the
// .hsf beside a .hif), or an error when its extension is none of Outputs.
func Paths(path string) ([]string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mmd", ".mermaid", ".md", ".puml", ".plantuml":
		return []string{path}, nil
	case ".hif":
		return []string{strings.TrimSuffix(path, filepath.Ext(path)) + ".hsf", path}, nil
	}
	return nil, fmt.Errorf("%s: a draft is written as %s", path, strings.Join(Outputs, ", "))
}

// Files returns the files of the draft written at path, in the notation its
// extension says: a Mermaid sequenceDiagram (.mmd, .mermaid), a Markdown
// document that holds one (.md), a PlantUML diagram (.puml, .plantuml), or
// HIBOU's files, path and its signature beside it (.hif, and .hsf). The
// diagrams carry, in ivc: comments, what their notation lacks (found and
// lost messages, messages the interaction does not use), so that ivc reads
// them back as the draft.
func (d *Draft) Files(path string) ([]File, error) {
	ext := strings.ToLower(filepath.Ext(path))
	title := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	switch ext {
	case ".mmd", ".mermaid":
		return []File{{path, []byte(diagram.FormatMermaid(d.Sig, d.Syntax, title))}}, nil
	case ".md":
		md := fmt.Sprintf("# %s\n\nA draft drawn by ivc infer from %d sessions (%d shapes).\n\n```mermaid\n%s```\n",
			title, d.Sessions, d.Shapes, diagram.FormatMermaid(d.Sig, d.Syntax, title))
		return []File{{path, []byte(md)}}, nil
	case ".puml", ".plantuml":
		return []File{{path, []byte(diagram.FormatPlantUML(d.Sig, d.Syntax, title))}}, nil
	case ".hif":
		hsf := strings.TrimSuffix(path, filepath.Ext(path)) + ".hsf"
		return []File{{hsf, interaction.FormatSignature(d.Sig)}, {path, interaction.FormatHIF(d.Syntax)}}, nil
	}
	return nil, fmt.Errorf("%s: a draft is written as %s", path, strings.Join(Outputs, ", "))
}

// Check loads the draft from its files (as Files gives them, before they
// are written) and judges every session of the inputs against it, in
// accept mode: the sessions are complete runs known to be right, which the
// draft must accept whole (prefix mode would let a draft miss their ends).
// It returns the outcomes of the sessions the draft does not accept (every
// verdict but Pass) and the summary of the run; the sessions that could not
// be drawn from are not judged.
func (d *Draft) Check(files []File, jobs int) ([]check.Outcome, check.Summary, error) {
	var sp *spec.Spec
	var err error
	if len(files) == 2 {
		sp, err = spec.Parse(files[0].Path, files[0].Data, files[1].Path, files[1].Data)
	} else {
		sp, err = spec.Parse(files[0].Path, files[0].Data, "", nil)
	}
	if err != nil {
		return nil, check.Summary{}, fmt.Errorf("internal error: the draft does not load (please report): %w", err)
	}
	opts, _, err := (&check.Settings{Mode: "accept", Jobs: jobs}).Options(sp)
	if err != nil {
		return nil, check.Summary{}, err
	}
	c, err := check.New(sp, opts)
	if err != nil {
		return nil, check.Summary{}, err
	}
	src, err := d.cfg.source(sp.Sig)
	if err != nil {
		return nil, check.Summary{}, err
	}
	var unfit []check.Outcome
	sum := c.Run(src.Sessions(d.files), check.RunOptions{Jobs: jobs}, func(o check.Outcome) {
		if o.Err == nil && o.Incomplete() == "" && o.Result.Verdict != verdict.Pass {
			unfit = append(unfit, o)
		}
	})
	sum.Counts = src.Counts
	return unfit, sum, nil
}
