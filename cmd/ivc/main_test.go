package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ivc": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// testdata is the module's top-level testdata folder: the shipped example
// specifications and multi-traces.
const testdata = "../../testdata"

// TestScripts runs the user stories of testdata/script/*.txtar. Each script
// starts in a work directory holding a copy of the shipped examples (abp/,
// lfrem/, legacy/, logs/, slice/), so that it may rewrite them and sees short paths.
//
// Besides the standard commands, scripts have "exits N CMD ARGS...", which
// runs CMD and checks that its exit status is N (stdout and stderr are then
// inspected as after exec), and "untime FILE...", which replaces the
// durations of the files (text and JSON) by 0 and drops setup times, so
// that two runs compare.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(testdata, "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"exits": exits, "untime": untime},
		Setup: func(env *testscript.Env) error {
			for _, dir := range []string{"abp", "lfrem", "legacy", "logs", "slice"} {
				if err := os.CopyFS(filepath.Join(env.WorkDir, dir), os.DirFS(filepath.Join(testdata, dir))); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// exits implements "exits N CMD ARGS...".
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits STATUS COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// durations are what changes from run to run in ivc's outputs: a text
// duration, and the JSON fields of times in µs; setups, which worker
// prepared first (--jobs), are dropped.
var (
	durations = regexp.MustCompile(`\b\d+(\.\d+)? ?(µs|ms|s)\b|("\w+_us":)\d+`)
	setups    = regexp.MustCompile(`"setup_us":\d+,|,"setup_us":\d+| \(setup [^)]*\)`)
)

// untime implements "untime FILE...".
func untime(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: untime FILE...")
	}
	for _, name := range args {
		data := setups.ReplaceAllString(ts.ReadFile(name), "")
		data = durations.ReplaceAllStringFunc(data, func(d string) string {
			if m := durations.FindStringSubmatch(d); m[3] != "" {
				return m[3] + "0"
			}
			return "0 s"
		})
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte(data), 0o666))
	}
}
