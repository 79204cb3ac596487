package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/internal/diagram"
	"github.com/ivc-project/ivc/internal/pretty"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
	"github.com/spf13/cobra"
)

func newFmtCmd(a *app) *cobra.Command {
	var (
		write, list, force bool
		sigPath, to, out   string
	)
	cmd := &cobra.Command{
		Use:   "fmt [-w] [-l] [--sig FILE.hsf] FILE|DIR... | fmt --to hif [-o BASE] DIAGRAM...",
		Short: "Print HIBOU files (.hsf, .hif, .htf, .hcf) in canonical form, or write a diagram as HIBOU files",
		Long: `Fmt prints HIBOU files in canonical form, as gofmt does for Go:

  .hsf  signature sections; a legacy single-file .hsf keeps its option
        sections (in today's spelling) first and its interaction last
  .hif  the interaction, one operand per line, tab indentation
  .htf  the multi-trace, one component per line
  .hcf  the option sections, one option per line, in today's spelling

The names of a .hif are checked against the signature given by --sig, or
else against the one .hsf file in the same directory (syntax only when there
is none or several). With --sig, a .htf is checked as analyze checks it
(names, components, actions on their component's lifelines); without, for
its syntax only. Comments are kept, next to the term, section, option or
component they were next to.

A directory stands for the files with these extensions below it. Without -w
or -l, the formatted files are printed on stdout. With --format json, one
object per file: {"file", "changed", "formatted"} ("formatted" only when
printing).

With --to hif, each DIAGRAM (a Mermaid or PlantUML sequence diagram: .mmd,
.mermaid, .puml, .plantuml, or a Markdown file's block, FILE.md#N or
FILE.md#heading-slug) is written as HIBOU files: BASE.hsf, its derived
signature (each participant a lifeline, its id an alias when it has a
display name), and BASE.hif, its interaction, both in canonical form. BASE
is -o's (for one diagram), else the diagram's file without its extension,
with "-" and the selector after it for a Markdown block: design.md#checkout
writes design-checkout.hsf and design-checkout.hif. An existing file is
replaced only with --force. With --format json, one object per diagram:
{"file", "hsf", "hif"}.`,
		Example: `  ivc fmt spec.hif                 # print the canonical form
  ivc fmt -l models/               # list the files that are not canonical
  ivc fmt -w models/               # rewrite them in place
  ivc fmt --sig abp.hsf other.hif  # also check the names of an interaction
  ivc fmt --to hif design.md#checkout-flow -o checkout  # checkout.hsf + checkout.hif`,
		Args: a.args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case to != "" && to != "hif":
				return a.usagef("invalid --to %q: want hif", to)
			case to == "" && (out != "" || force):
				return a.usagef("-o and --force go with --to hif")
			case to != "" && (write || list || sigPath != ""):
				return a.usagef("--to hif writes new files: it takes no -w, -l or --sig")
			case to != "" && out != "" && len(args) > 1:
				return a.usagef("-o names the files of one diagram: %d given", len(args))
			case to != "":
				for _, d := range args {
					if err := a.toHIF(d, out, force); err != nil {
						a.report(err)
					}
				}
				return nil
			}
			f := &formatter{a: a, write: write, list: list, sigs: map[string]*interaction.Signature{}}
			if sigPath != "" {
				sig, err := a.loadSignature(sigPath)
				if err != nil {
					return err
				}
				f.sig = sig
			}
			for _, path := range a.expand(args, pretty.Extensions...) {
				if err := f.file(path); err != nil {
					a.report(err)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&write, "write", "w", false, "rewrite files whose formatting differs, in place")
	cmd.Flags().BoolVarP(&list, "list", "l", false, "list files whose formatting differs")
	cmd.Flags().StringVar(&sigPath, "sig", "", "signature `FILE.hsf` to check .hif and .htf files against")
	cmd.Flags().StringVar(&to, "to", "", "write each DIAGRAM as HIBOU files, `hif`: BASE.hsf and BASE.hif")
	cmd.Flags().StringVarP(&out, "output", "o", "", "with --to hif, the files' `BASE` (default: the diagram's, see above)")
	cmd.Flags().BoolVar(&force, "force", false, "with --to hif, replace existing files")
	return cmd
}

// toHIF writes the diagram d as HIBOU files BASE.hsf and BASE.hif (see
// ivc fmt --help).
func (a *app) toHIF(d, base string, force bool) error {
	if !spec.IsDiagram(d) {
		return a.usagef("%s is not a diagram (%s)", d, strings.Join(diagram.Extensions, ", "))
	}
	sp, err := a.specOptions().Load(d, "")
	if err != nil {
		return err
	}
	a.warn(sp.Warnings)
	if base == "" {
		file, sel := diagram.SplitSelector(d)
		base = strings.TrimSuffix(file, filepath.Ext(file))
		if sel != "" {
			base += "-" + sel
		}
	}
	hsf, hif := interaction.FormatHSF(sp.SigFile), interaction.FormatHIF(sp.Syntax)
	// What is written must load as the diagram did.
	if _, err := spec.Parse(base+".hsf", hsf, base+".hif", hif); err != nil {
		return fmt.Errorf("%s: internal error: the HIBOU files do not load (please report): %v", syntax.FileName(d), err)
	}
	files := []struct {
		path string
		src  []byte
	}{{base + ".hsf", hsf}, {base + ".hif", hif}}
	for _, f := range files {
		if err := checkOutput("-o", f.path, []string{d}, "", force); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := atomicfile.WriteFile(f.path, f.src, 0o644); err != nil {
			return syntax.FileError(err)
		}
	}
	if a.json() {
		line, _ := json.Marshal(struct {
			File string `json:"file"`
			HSF  string `json:"hsf"`
			HIF  string `json:"hif"`
		}{d, files[0].path, files[1].path})
		fmt.Fprintf(a.stdout, "%s\n", line)
	}
	return nil
}

type formatter struct {
	a           *app
	write, list bool
	sig         *interaction.Signature            // --sig
	sigs        map[string]*interaction.Signature // per directory, nil when none
}

func (f *formatter) file(path string) error {
	src, err := syntax.ReadFile(path)
	if err != nil {
		return err
	}
	var sig *interaction.Signature
	switch {
	case hasExt(path, ".hif"):
		sig = f.signatureFor(path)
	case hasExt(path, ".htf"):
		sig = f.sig
	}
	out, err := pretty.File(path, src, sig)
	if err != nil {
		return err
	}
	// The canonical form must be a fixed point; never write a file that
	// would not be. (Its names are src's, checked already.)
	if again, err := pretty.File(path, out, nil); err != nil || !bytes.Equal(again, out) {
		return fmt.Errorf("%s: internal error: the canonical form does not parse back to itself (please report): %v", syntax.FileName(path), err)
	}
	changed := !bytes.Equal(src, out)
	if f.write && changed {
		// Atomically, keeping the file's mode and following a symbolic
		// link: an interrupted ivc fmt -w never leaves a truncated model.
		if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
			return syntax.FileError(err)
		}
	}
	printing := !f.write && !f.list
	switch {
	case f.a.json():
		rec := struct {
			File      string  `json:"file"`
			Changed   bool    `json:"changed"`
			Formatted *string `json:"formatted,omitempty"`
		}{File: path, Changed: changed}
		if printing {
			s := string(out)
			rec.Formatted = &s
		}
		line, _ := json.Marshal(rec)
		fmt.Fprintf(f.a.stdout, "%s\n", line)
	case printing:
		f.a.stdout.Write(out)
	case f.list && changed:
		fmt.Fprintln(f.a.stdout, syntax.FileName(path))
	}
	return nil
}

// signatureFor returns the signature to check the .hif file at path against:
// --sig, or the one .hsf file of its directory. A broken .hsf is reported
// once, and its directory's .hif files are then checked for syntax only.
func (f *formatter) signatureFor(path string) *interaction.Signature {
	if f.sig != nil {
		return f.sig
	}
	dir := filepath.Dir(path)
	if sig, ok := f.sigs[dir]; ok {
		return sig
	}
	f.sigs[dir] = nil
	var hsfs []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() && hasExt(e.Name(), ".hsf") {
			hsfs = append(hsfs, filepath.Join(dir, e.Name()))
		}
	}
	if len(hsfs) != 1 {
		return nil
	}
	sig, err := f.a.loadSignature(hsfs[0])
	if err != nil {
		f.a.report(err)
		return nil
	}
	f.sigs[dir] = sig
	return sig
}

// loadSignature reads the signature of a .hsf file (modern or legacy),
// printing its warnings.
func (a *app) loadSignature(path string) (*interaction.Signature, error) {
	src, err := syntax.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sf, err := interaction.ParseHSF(path, src)
	if err != nil {
		return nil, err
	}
	sig, warnings, err := sf.Signature(path)
	a.warn(warnings)
	return sig, err
}
