package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionOf(t *testing.T) {
	for _, tc := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/ivc-project/ivc", Version: "v1.2.0"}},
			"v1.2.0, go1.26.8"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/ivc-project/ivc",
			Version: "v0.0.0-20261127180000-344fe13abcde+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "344fe13abcdef0123456789"},
				{Key: "vcs.time", Value: "2026-11-27T18:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"v0.0.0-20261127180000-344fe13abcde+dirty (revision 344fe13abcdef0123456789, modified, 2026-11-27T18:00:00Z), go1.26.8"},
		{debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}},
			"(devel) (revision abc)"},
	} {
		if got := versionOf(&tc.bi); got != tc.want {
			t.Errorf("versionOf = %q, want %q", got, tc.want)
		}
	}
}

// TestVersionFlag: ivc --version prints one line, "ivc " and the version,
// and exits 0.
func TestVersionFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if status := run([]string{"--version"}, testEnv(&out, &errb)); status != 0 {
		t.Fatalf("ivc --version: status %d, stderr %s", status, errb.String())
	}
	if got, want := out.String(), "ivc "+version()+"\n"; got != want || !strings.HasPrefix(got, "ivc ") {
		t.Errorf("ivc --version printed %q, want %q", got, want)
	}
}
