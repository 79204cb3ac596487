package multitrace

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/testutil"
)

// corpusFiles is the number of .htf files in the corpus when this test was
// written; the test fails if it finds fewer, so that files lost by a broken
// checkout do not go unnoticed.
const corpusFiles = 10345

// TestCorpus parses every .htf of the corpus (without -tags sweep, a tenth
// of lfrem's and a quarter of the long traces), resolves it against its signature and checks the round trips
// through Format. Files are read by
// several goroutines: the time goes into opening 10,000 small files.
func TestCorpus(t *testing.T) {
	t.Parallel()
	dir := corpusDir(t)
	sigs := map[string]*interaction.Signature{}
	type job struct {
		rel string
		sig *interaction.Signature // nil: the names the file uses
	}
	var jobs []job
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".htf") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		var sigPath string
		switch {
		case strings.HasPrefix(rel, "lfrem/"):
			sigPath = "lfrem/signature.hsf"
		case strings.HasPrefix(rel, "long-traces/tracegen_abp_"):
			sigPath = "long-traces/abp.hsf"
		case strings.HasPrefix(rel, "long-traces/tracegen_rover_"):
			sigPath = "long-traces/rover.hsf"
		case strings.HasPrefix(rel, "3sat/"):
			sigPath = strings.TrimSuffix(rel, ".htf") + ".hsf"
		case strings.HasPrefix(rel, "legacy/"):
		default:
			t.Errorf("%s: no signature known for this file", rel)
			return nil
		}
		j := job{rel: rel}
		if sigPath != "" {
			if sigs[sigPath] == nil {
				sigs[sigPath] = readSig(t, filepath.Join(dir, sigPath))
			}
			j.sig = sigs[sigPath]
		}
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	next := make(chan job)
	for range 16 {
		wg.Go(func() {
			for j := range next {
				src, err := os.ReadFile(filepath.Join(dir, j.rel))
				if err != nil {
					t.Error(err)
					continue
				}
				checkFile(t, j.rel, src, j.sig)
			}
		})
	}
	checked := 0
	for k, j := range jobs {
		// Without -tags sweep, one lfrem file in forty (there are 10,000)
		// and one long trace in eight (8 MB of them).
		if !testutil.Sweep() && (strings.HasPrefix(j.rel, "lfrem/") && k%40 != 0 || strings.HasPrefix(j.rel, "long-traces/") && k%8 != 0) {
			continue
		}
		next <- j
		checked++
	}
	close(next)
	wg.Wait()
	if len(jobs) < corpusFiles {
		t.Errorf("found %d .htf files under %s, want at least %d", len(jobs), dir, corpusFiles)
	}
	t.Logf("%d files, %d checked", len(jobs), checked)
}

// TestTestdata checks the corpus files copied into testdata, which are
// there even without the corpus.
func TestTestdata(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.htf")
	if err != nil || len(paths) < 7 {
		t.Fatalf("testdata: %v %v", paths, err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var sig *interaction.Signature
		switch {
		case strings.Contains(p, "lfrem_"):
			sig = readSig(t, "testdata/lfrem_signature.hsf")
		case strings.Contains(p, "abp"):
			sig = readSig(t, "testdata/long-traces_abp.hsf")
		}
		checkFile(t, p, src, sig)
	}
}

// checkFile parses and resolves src against sig (or, if sig is nil, against
// the signature of the names it uses) and checks:
//   - Parse(Format(f)) is f up to positions;
//   - ParseResolve and Parse+Resolve agree;
//   - the multi-trace has as many actions as the file has '!' and '?';
//   - resolving mt.Format(sig) gives mt back.
func checkFile(t *testing.T, name string, src []byte, sig *interaction.Signature) {
	t.Helper()
	f, err := Parse(name, src)
	if err != nil {
		t.Errorf("Parse: %v", err)
		return
	}
	printed := Format(f)
	g, err := Parse(name, printed)
	if err != nil {
		t.Errorf("%s: reparsing the formatted file: %v\n%s", name, err, printed)
		return
	}
	if !sameSyntax(f, g) {
		t.Errorf("%s: Parse(Format(f)) differs from f:\n%s", name, printed)
	}
	if sig == nil {
		sig = namesSignature(t, f)
	}
	mt, err := f.Resolve(name, sig)
	if err != nil {
		t.Errorf("Resolve: %v", err)
		return
	}
	mt1, err := ParseResolve(name, src, sig)
	if err != nil || !mt1.Equal(mt) {
		t.Errorf("%s: ParseResolve differs from Parse+Resolve (error %v)", name, err)
	}
	acts := 0
	for _, c := range mt.Components {
		for _, e := range c.Trace {
			acts += len(e)
		}
	}
	if want := bytes.Count(src, []byte("!")) + bytes.Count(src, []byte("?")); acts != want {
		t.Errorf("%s: %d actions, want %d", name, acts, want)
	}
	var all interaction.Lifelines
	for _, c := range mt.Components {
		if c.Lifelines.Meets(all) || c.Lifelines.IsEmpty() {
			t.Errorf("%s: components do not partition the lifelines", name)
		}
		all = all.Union(c.Lifelines)
	}
	if all != sig.AllLifelines() {
		t.Errorf("%s: components cover %s, not every lifeline", name, all.Format(sig))
	}
	back, err := ParseResolve(name, mt.Format(sig), sig)
	if err != nil {
		t.Errorf("%s: resolving the printed multi-trace: %v\n%s", name, err, mt.Format(sig))
		return
	}
	if !back.Equal(mt) {
		t.Errorf("%s: the printed multi-trace resolves to another one:\n%s", name, mt.Format(sig))
	}
}

// namesSignature returns the signature of the lifelines and messages that
// f uses, in order of appearance.
func namesSignature(t *testing.T, f *File) *interaction.Signature {
	sig := &interaction.Signature{}
	lf := map[string]bool{}
	msg := map[string]bool{}
	addL := func(s string) {
		if !lf[s] {
			lf[s] = true
			if err := sig.AddLifeline(s); err != nil {
				t.Error(err)
			}
		}
	}
	for _, c := range f.Components {
		for _, n := range c.Lifelines {
			addL(n.Text)
		}
		for _, e := range c.Trace {
			for _, a := range e.Acts {
				addL(a.Lifeline.Text)
				if !msg[a.Msg.Text] {
					msg[a.Msg.Text] = true
					if err := sig.AddMessage(a.Msg.Text); err != nil {
						t.Error(err)
					}
				}
			}
		}
	}
	return sig
}
