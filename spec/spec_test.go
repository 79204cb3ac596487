package spec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/hcf"
	"github.com/ivc-project/ivc/syntax"
)

const testdata = "../testdata"

func TestLoad(t *testing.T) {
	sp, err := Load(filepath.Join(testdata, "abp", "abp.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sp.Sig.Lifelines, ","); got != "S,K,L,R" {
		t.Errorf("lifelines %s", got)
	}
	if sp.HIFPath != filepath.Join(testdata, "abp", "abp.hif") || sp.Options != nil {
		t.Errorf("HIFPath %q, Options %v", sp.HIFPath, sp.Options)
	}

	sp, err = Load(filepath.Join(testdata, "lfrem", "signature.hsf"), filepath.Join(testdata, "lfrem", "i1.hif"))
	if err != nil {
		t.Fatal(err)
	}
	if sp.Store.NumActions(sp.Root) != 11 {
		t.Errorf("i1 has %d actions, want 11", sp.Store.NumActions(sp.Root))
	}
}

func TestLoadLegacy(t *testing.T) {
	path := filepath.Join(testdata, "legacy", "example_for_analysis.hsf")
	sp, err := Load(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if sp.HIFPath != path || sp.Syntax == nil {
		t.Errorf("HIFPath %q, Syntax %v", sp.HIFPath, sp.Syntax)
	}
	if sp.Options == nil {
		t.Fatal("no options")
	}
	sec := sp.Options.Section(hcf.Analyze)
	if sec == nil {
		t.Fatal("no @analyze_option")
	}
	o := sec.Options
	if o.Analysis.Kind != hcf.Prefix || o.Strategy != hcf.DFS || !o.Has(hcf.KeyLocalAnalysis) || o.LocalAnalysis.Enabled || o.Goal != hcf.GoalPass {
		t.Errorf("options %+v", o)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
		return path
	}
	sig := write("sig.hsf", "@lifeline{a;b}\n@message{m}\n")
	legacy := write("legacy.hsf", "@analyze_option{ strategy = DFS }\n@lifeline{a;b}\n@message{m}\na -- m -> b\n")
	twice := write("twice.hsf", "@analyze_option{ strategy = DFS }\n@analyze_option{ goal = Pass }\n@lifeline{a;b}\n@message{m}\no\n")
	badopt := write("badopt.hsf", "@analyze_option{\n  strategy = Sideways\n}\n@lifeline{a}\n@message{m}\no\n")
	undeclared := write("undeclared.hif", "seq(a -- m -> b,\n  a -- n -> b)\n")
	for _, tc := range []struct {
		hsf, hif, want string
	}{
		{sig, "", "sig.hsf: no interaction: give a .hif file (none found at " + filepath.Join(dir, "sig.hif") + ")"},
		{sig, filepath.Join(dir, "none.hif"), "none.hif: no such file or directory"},
		{filepath.Join(dir, "none.hsf"), "", "none.hsf: no such file or directory"},
		{legacy, undeclared, "legacy.hsf: holds an interaction (legacy single-file .hsf): do not also give"},
		{sig, undeclared, "undeclared.hif:2:8: undeclared message \"n\""},
		{twice, "", "twice.hsf:2:1: @analyze_option given twice (first at 1:1)"},
		{badopt, "", "badopt.hsf:2:14: "},
	} {
		_, err := Load(tc.hsf, tc.hif)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%s, %s) = %v, want an error with %q", filepath.Base(tc.hsf), filepath.Base(tc.hif), err, tc.want)
		}
	}
}

// TestLoadDuplicates: a name declared twice in the signature is accepted
// with a warning, as HIBOU accepts it, and means its first declaration;
// pretty.File keeps the file as written (pretty's TestFormatDuplicates).
func TestLoadDuplicates(t *testing.T) {
	dir := t.TempDir()
	hsf := filepath.Join(dir, "tpm.hsf")
	src := "@message{\n  SendCommand;\n  SendComplete;\n  SendComplete\n}\n@lifeline{host;tpm;host}\n"
	if err := os.WriteFile(hsf, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	hif := filepath.Join(dir, "tpm.hif")
	if err := os.WriteFile(hif, []byte("seq(host -- SendCommand -> tpm, tpm -- SendComplete -> host)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sp, err := Load(hsf, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range sp.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		hsf + ":4:3: warning: message SendComplete declared twice (first at 3:3)",
		hsf + ":6:20: warning: lifeline host declared twice (first at 6:11)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m, _ := sp.Sig.Message("SendComplete"); len(sp.Sig.Messages) != 2 || m != 1 {
		t.Errorf("messages %v, SendComplete is %d", sp.Sig.Messages, m)
	}
	if len(sp.Sig.Lifelines) != 2 || sp.Store.NumActions(sp.Root) != 4 {
		t.Errorf("lifelines %v, %d actions", sp.Sig.Lifelines, sp.Store.NumActions(sp.Root))
	}
}

// TestLoadDevice: a device given as a specification is an error naming
// it (syntax.ReadFile reads regular files only).
func TestLoadDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	link := filepath.Join(t.TempDir(), "zero.hsf")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	_, err := Load(link, "")
	if !errors.Is(err, syntax.ErrNotRegular) || err.Error() != link+": is a character device, not a regular file (give a file, or - for standard input)" {
		t.Errorf("Load of a link to /dev/zero: %v", err)
	}
}

// TestParse loads from text what Load loads from files, without reading
// any file, with errors naming the files given.
func TestParse(t *testing.T) {
	sig := []byte("@lifeline{a;b}\n@message{m}\n")
	sp, err := Parse("mem/s.hsf", sig, "mem/s.hif", []byte("a -- m -> b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sp.SigPath != "mem/s.hsf" || sp.HIFPath != "mem/s.hif" || len(sp.Sig.Lifelines) != 2 {
		t.Errorf("Parse: %+v", sp)
	}
	if _, err := Parse("mem/s.hsf", sig, "mem/bad.hif", []byte("a -- x -> b\n")); err == nil || !strings.HasPrefix(err.Error(), "mem/bad.hif:1:") {
		t.Errorf("bad .hif: %v", err)
	}
	if _, err := Parse("mem/s.hsf", sig, "", nil); err == nil || !strings.Contains(err.Error(), "no interaction") {
		t.Errorf("no .hif: %v", err)
	}
}

// TestFileErrorCause: FileError drops the operation from the message but
// keeps the *fs.PathError and its reason for errors.As and errors.Is.
func TestFileErrorCause(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "none.hsf"), "")
	var pe *fs.PathError
	if !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) || strings.HasPrefix(err.Error(), "open ") {
		t.Errorf("missing file: %v (%T)", err, err)
	}
}
