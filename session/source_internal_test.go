package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// TestSourceOpensOnce: a .htf file known as one before it is opened (by
// its name, or by the content its directory's recognition read) is opened
// once, by the worker that reads it, not by the reading of the logs before
// it; a file that only its content says is a .htf file is read when that
// is found. So the first two need not be there while the sessions are
// handed out, and the last not when they are read.
func TestSourceOpensOnce(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"a", "b"}, []string{"m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir, away := t.TempDir(), t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	move := func(from, to string, files ...string) {
		for _, f := range files {
			if err := os.Rename(filepath.Join(from, filepath.Base(f)), filepath.Join(to, filepath.Base(f))); err != nil {
				t.Fatal(err)
			}
		}
	}
	htf := "{ [a] a!m; [b] b?m }\n"
	log := write("a.jsonl", `{"session":"s","action":"a!m"}`+"\n")
	named := write("b.htf", htf)
	recognized := write("c.txt", htf) // found in a directory: recognized by its content
	given := write("d.txt", htf)      // given itself: its content decides when it is opened
	src := &Source{Options: logs.Options{Sig: sig}}
	for _, f := range []string{log, named, recognized} {
		if !src.Recognize(f) {
			t.Fatalf("%s not recognized", f)
		}
	}
	if f := src.formatOf(recognized); f != logs.HTF {
		t.Fatalf("%s: detected %v, want htf", recognized, f)
	}
	move(dir, away, named, recognized)
	var sessions []Session
	for s := range src.Sessions([]string{log, named, recognized, given}) {
		sessions = append(sessions, s)
	}
	move(away, dir, named, recognized)
	move(dir, away, given)
	if len(sessions) != 4 || src.Counts.HTF != 3 || sessions[0].ID != "s" {
		t.Fatalf("%d sessions, %d .htf files: %+v", len(sessions), src.Counts.HTF, sessions)
	}
	for _, s := range sessions[1:] {
		if mt, err := s.Read(); err != nil || mt.Len() != 2 {
			t.Errorf("%s: %v, %v", s.File, mt, err)
		}
	}
}
