package main

import (
	"context"
	"errors"
	"io"
	"log"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes this test binary the ivc binary when it runs under that
// name: "exec ivc" in a script runs main, with its signals, os.Exit and the
// close of standard output, from a link named ivc on the PATH. (Not
// testscript.Main: it would make ivc a builtin command that runs the binary,
// where scripts run "ivc" in the test process.)
func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) {
	case "ivc":
		main()
		return
	case "ivc-peak":
		// ivc that writes its own peak resident memory (VmHWM) to the
		// file $IVC_PEAK_FILE as it exits: a child's rusage would carry
		// the high-water mark of the test process that started it (a
		// vfork shares its memory until the exec).
		status := run(os.Args[1:], osEnv())
		if b, err := os.ReadFile("/proc/self/status"); err == nil {
			for line := range strings.Lines(string(b)) {
				if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					os.WriteFile(os.Getenv("IVC_PEAK_FILE"), []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB"))), 0o644)
				}
			}
		}
		os.Exit(status)
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	bin, err := os.MkdirTemp("", "ivc-test-bin")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(bin)
	self, err := os.Executable()
	if err == nil {
		err = os.Symlink(self, filepath.Join(bin, "ivc"))
	}
	if err == nil {
		err = os.Symlink(self, filepath.Join(bin, "ivc-peak"))
	}
	if err != nil {
		log.Fatalf("cannot put ivc on the PATH: %v", err)
	}
	os.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	return m.Run()
}

// testdata is the module's top-level testdata folder: the shipped example
// specifications and multi-traces.
const testdata = "../../testdata"

// TestScripts runs the user stories of testdata/script/*.txtar. Each script
// starts in a work directory holding a copy of the shipped examples (abp/,
// lfrem/, legacy/, logs/, slice/, realtraces/), so that it may rewrite them and sees short paths.
//
// Besides the standard commands, scripts have:
//
//   - "ivc ARGS...", which runs ivc in the test process (run, with the
//     script's directory, environment, stdout and stderr), as exec would run
//     the binary but without a process per command: most scripts use it.
//     "exec ivc ARGS..." runs the real binary (this test binary as main);
//     scripts use it where a process is what is tested: standard input,
//     the exit status of the binary.
//   - "exits N ivc ARGS..." (in the test process) or "exits N exec CMD
//     ARGS..." (a process), which checks that the exit status is N (stdout
//     and stderr are then inspected as after exec).
//   - "untime FILE...", which replaces the durations of the files (text
//     and JSON) by 0 and drops setup times, so that two runs compare.
func TestScripts(t *testing.T) {
	// Absolute: in-process runs of ivc change the working directory.
	testdata, err := filepath.Abs(testdata)
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(testdata, "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"ivc": ivcCmd, "exits": exits, "untime": untime},
		Setup: func(env *testscript.Env) error {
			// The shared directories the script names: copying all six
			// into each of the scripts' work directories was a tenth of
			// this package's test time.
			script, err := os.ReadFile(filepath.Join(testdata, "script", path.Base(env.T().(interface{ Name() string }).Name())+".txtar"))
			if err != nil {
				return err
			}
			for _, dir := range []string{"abp", "checkout", "lfrem", "legacy", "logs", "slice", "realtraces"} {
				if !regexp.MustCompile(`\b` + dir + `\b`).Match(script) {
					continue
				}
				if err := os.CopyFS(filepath.Join(env.WorkDir, dir), os.DirFS(filepath.Join(testdata, dir))); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// testEnv is the env of a run in the test process: the given streams, no
// standard input, no environment variable, and no signal (the run's
// context is never done).
func testEnv(stdout, stderr io.Writer) env {
	return env{
		stdin: strings.NewReader(""), stdout: stdout, stderr: stderr,
		getenv:      func(string) string { return "" },
		interrupted: func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
	}
}

// workDir serializes the in-process runs of ivc on the process's working
// directory: a run needs its script's as its own, since ivc resolves the
// relative paths it is given from there (the one piece of state that env
// cannot carry).
var workDir sync.Mutex

// ivcRun runs ivc in the test process with the script's directory,
// environment and output streams, and returns its exit status.
func ivcRun(ts *testscript.TestScript, args []string) int {
	// Writes from several goroutines of a run are serialized, as a pipe
	// would.
	var mu sync.Mutex
	e := testEnv(&lockedWriter{mu: &mu, w: ts.Stdout()}, &lockedWriter{mu: &mu, w: ts.Stderr()})
	e.getenv = ts.Getenv
	workDir.Lock()
	defer workDir.Unlock()
	wd, err := os.Getwd()
	ts.Check(err)
	ts.Check(os.Chdir(ts.MkAbs(".")))
	defer func() { ts.Check(os.Chdir(wd)) }()
	return run(args, e)
}

// ivcCmd implements "ivc ARGS...": like exec, it fails on a non-zero exit
// status, or with !, on a zero one.
func ivcCmd(ts *testscript.TestScript, neg bool, args []string) {
	status := ivcRun(ts, args)
	switch {
	case status != 0 && !neg:
		ts.Fatalf("ivc exited with status %d", status)
	case status == 0 && neg:
		ts.Fatalf("unexpected ivc success")
	}
}

// exits implements "exits N ivc ARGS..." and "exits N exec CMD ARGS...".
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || args[1] != "ivc" && (args[1] != "exec" || len(args) < 3) {
		ts.Fatalf("usage: exits STATUS ivc [ARGS...] | exits STATUS exec COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	if args[1] == "ivc" {
		if got := ivcRun(ts, args[2:]); got != want {
			ts.Fatalf("ivc exited with status %d, want %d", got, want)
		}
		return
	}
	got := 0
	if err := ts.Exec(args[2], args[3:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exec %s exited with status %d, want %d", args[2], got, want)
	}
}

// lockedWriter is a writer shared by goroutines.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
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
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte(untimed(ts.ReadFile(name))), 0o666))
	}
}

// untimed replaces the durations of an output by 0 and drops its setup
// times.
func untimed(s string) string {
	return durations.ReplaceAllStringFunc(setups.ReplaceAllString(s, ""), func(d string) string {
		if m := durations.FindStringSubmatch(d); m[3] != "" {
			return m[3] + "0"
		}
		return "0 s"
	})
}
