package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/internal/diagram"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
)

// specArgs splits the arguments SPEC [HIF] REST... of a command: SPEC is a
// .hsf file, and the next argument is its .hif when its extension says so
// (or a diagram: see spec.Load); or SPEC is a diagram alone.
func (a *app) specArgs(args []string) (hsf, hif string, rest []string, err error) {
	if len(args) == 0 {
		return "", "", nil, a.usagef("missing SPEC (a .hsf file, or a diagram)")
	}
	hsf, rest = args[0], args[1:]
	if spec.IsDiagram(hsf) {
		if len(rest) > 0 && (hasExt(rest[0], ".hif") || spec.IsDiagram(rest[0])) {
			return "", "", nil, a.usagef("SPEC %s is a diagram, a whole spec: it takes no HIF %s (give a .hsf first to check a diagram against it)", hsf, rest[0])
		}
		return hsf, "", rest, nil
	}
	if !hasExt(hsf, ".hsf") {
		return "", "", nil, a.usagef("SPEC %s is not a .hsf file (a signature, or a legacy single-file .hsf) nor a diagram (%s)", hsf, strings.Join(diagram.Extensions, ", "))
	}
	if len(rest) > 0 && (hasExt(rest[0], ".hif") || spec.IsDiagram(rest[0])) {
		hif, rest = rest[0], rest[1:]
	}
	return hsf, hif, rest, nil
}

// specOptions are the options of loading a spec that the global flags give.
func (a *app) specOptions() spec.Options {
	return spec.Options{SelfMessages: a.selfMessages == "message"}
}

// loadSpec loads the specification named by the arguments SPEC [HIF] at the
// start of args, and returns the arguments after them.
func (a *app) loadSpec(args []string) (*spec.Spec, []string, error) {
	hsf, hif, rest, err := a.specArgs(args)
	if err != nil {
		return nil, nil, err
	}
	sp, err := a.specOptions().Load(hsf, hif)
	if err != nil {
		return nil, nil, err
	}
	a.warn(sp.Warnings)
	return sp, rest, nil
}

// loadOnlySpec loads the specification named by args, SPEC [HIF] and
// nothing else.
func (a *app) loadOnlySpec(args []string) (*spec.Spec, error) {
	sp, rest, err := a.loadSpec(args)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, a.usagef("unexpected argument %s (want SPEC [HIF], the HIF a .hif file)", rest[0])
	}
	return sp, nil
}

// specFiles names the files of sp for text output: "abp.hsf + abp.hif",
// or the .hsf alone for a legacy single-file one; names are quoted as
// syntax.FileName does.
func specFiles(sp *spec.Spec) string {
	if sp.HIFPath == sp.SigPath {
		return syntax.FileName(sp.SigPath)
	}
	return syntax.FileName(sp.SigPath) + " + " + syntax.FileName(sp.HIFPath)
}

func hasExt(path string, exts ...string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range exts {
		if ext == e {
			return true
		}
	}
	return false
}

// expand lists the files named by paths: a directory stands for the files
// below it whose extension is one of exts, sorted; any other path stands for
// itself, so that a missing file is reported in its place by whoever reads it.
// A directory that cannot be read or has no such file is reported here. A
// symbolic link given as a path is followed (the links below a directory are
// not, so that a loop of links cannot make the walk endless).
func (a *app) expand(paths []string, exts ...string) []string {
	files, _ := a.expandMatch(paths, func(path string) bool { return logs.HasExtension(path, exts...) }, orList(exts))
	return files
}

// expandMatch is expand with the files of a directory chosen by match
// (what names them in an error); it also returns the files of directories
// that match refused.
func (a *app) expandMatch(paths []string, match func(path string) bool, what string) (files, skipped []string) {
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			files = append(files, p)
			continue
		}
		root := p
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			// WalkDir does not follow a link, even at its root; a
			// trailing separator makes the root the directory.
			root = p + string(filepath.Separator)
		}
		n := len(files)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir():
			case match(path):
				files = append(files, path)
			default:
				skipped = append(skipped, path)
			}
			return nil
		})
		switch {
		case err != nil:
			a.report(syntax.FileError(err))
		case len(files) == n:
			a.report(fmt.Errorf("%s: no %s file in this directory", syntax.FileName(p), what))
		}
	}
	return files, skipped
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
