//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/ivc-project/ivc/internal/testutil"
)

// TestDocs keeps README.md and docs/*.md true: it runs every shell command
// of their fenced code blocks, checks its exit status, and compares its
// output where the page shows it. A block's info string says what it holds
// and how its commands run:
//
//   - "sh": shell commands, one a line (a line ending in \ goes on), run by
//     bash -o pipefail from the page's directory, the root of the clone. A
//     command starting with "go" runs in the clone itself (and must not
//     write into it); any other runs in a scratch directory of the page
//     holding a copy of testdata/, so that what it writes goes there. "ivc"
//     is the ivc built from the tree (this test binary, see TestMain), and
//     so is "go run ./cmd/ivc". Words after "sh":
//     "exit=N": the exit status of every command of the block (default 0);
//     "sweep": run only with -tags sweep (slow, or a nested module);
//     "shared": skipped, as the corpus tests are, without ../shared;
//     "interrupt": the command serves until interrupted: it is sent SIGINT
//     (Ctrl-C) once it has printed the lines its output block shows before
//     its first "...", or after a minute;
//     "manual": no command of the block runs here; each is listed in
//     manualCommands with the reason (another test runs it, or none can).
//   - "output": right after a "sh" block of one command, what it prints:
//     its standard output, then its standard error. A line "..." stands for
//     any lines; durations, setup times and node counts are not compared.
//   - "go", "yaml", "text": not commands (code, configuration, synopses,
//     file contents).
//
// Under -tags sweep, a benchmark runs once (-benchtime 1x), and a command
// of lighterCommands runs in its lighter form.
func TestDocs(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	listed := map[string]bool{}
	for _, path := range pages {
		page, _ := filepath.Rel(root, path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, root, page, src)
		cmds, err := pageCommands(page, src)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, c := range cmds {
			if c.manual {
				listed[c.text] = true
			}
		}
		t.Run(strings.TrimSuffix(page, ".md"), func(t *testing.T) {
			// Pages are independent (each has its scratch directory), and
			// most of their time is spent waiting for commands.
			t.Parallel()
			runPage(t, root, cmds)
		})
	}
	for c := range manualCommands {
		if !listed[c] {
			t.Errorf("manualCommands lists %q, which no page shows in a \"sh manual\" block", c)
		}
	}
}

// manualCommands are the commands of the pages that TestDocs does not run,
// with the reason.
var manualCommands = map[string]string{
	"go test ./...":             "the test run this test belongs to",
	"go test -tags sweep ./...": "the test run this test belongs to, with the sweeps",
	"go mod edit -replace github.com/ivc-project/ivc=../ivc -require github.com/ivc-project/ivc@v0.0.0-00010101000000-000000000000 -tool github.com/ivc-project/ivc/cmd/ivc": "TestGoGenerate (sweep) runs it, from the page, with this clone's path",
	"go mod tidy":       "TestGoGenerate (sweep) runs it, from the page, in a fresh module",
	"go generate ./...": "TestGoGenerate (sweep) runs it, from the page, in a fresh module",
	"go run ./internal/cmd/benchtable -rows join10m": "about 4 minutes and 1 GB of logs",
	"go run ./internal/cmd/benchtable -table1":       "about 6 minutes; the sweep runs its benchmarks once, as the page's go test -bench Table1 line",
	"internal/cmd/benchtable/ab.sh 67925e9 6":        "checks another revision out as a worktree of this repository, and runs for many minutes",
	"internal/cmd/benchtable/abrt.sh 67925e9 6":      "checks another revision out as a worktree of this repository, and runs for many minutes",
	"go run ./internal/cmd/benchtable -rows peers":   "about 10 minutes: three rounds of 2M spans to four receivers",
	// ivc monitor beside the Collector, a nested module of its own.
	"go -C monitor/collector test -run '^$' -bench Peers -benchtime 4000x": "minutes; CI's monitor/collector/ step builds it (go vet)",
	// The Collector connector, a nested module of its own.
	"go -C collector test ./ivcconnector -run '^$' -bench 'Load$' -benchtime 2000x":        "CI's collector/ step runs its TestLoad, the same load, shorter",
	"go -C collector test ./ivcconnector -run '^$' -bench 'LoadMonitor$' -benchtime 2000x": "CI's collector/ step runs its TestLoad, the same load to the Collector, shorter; monitor's TestLoad, to ivc monitor's parts",
}

// lighterCommands are what TestDocs runs, under -tags sweep, in place of
// commands that take too long to run as they are.
var lighterCommands = map[string]string{
	// Every row takes a quarter of an hour: one row shows the command works.
	"go run ./internal/cmd/benchtable": "go run ./internal/cmd/benchtable -rows nfa",
}

// A docCommand is a shell command of a page.
type docCommand struct {
	page string
	line int
	text string
	exit int
	// How it runs: see TestDocs.
	sweep, shared, interrupt, manual bool
	// want is the output the page shows, if it does.
	want      []string
	wantShown bool
}

func (c docCommand) String() string { return fmt.Sprintf("%s:%d: %s", c.page, c.line, c.text) }

// A fence is a fenced code block of a page.
type fence struct {
	line     int      // of its opening fence
	info     []string // its info string's words
	body     []string // its lines, without the fence's indentation
	adjacent bool     // only blank lines between it and the block before
}

var fenceRE = regexp.MustCompile("^( *)(```+)(.*)$")

// fences reads the fenced code blocks of a page.
func fences(page string, src []byte) ([]fence, error) {
	var fs []fence
	lines := strings.Split(string(src), "\n")
	blank := false // only blank lines since the last block
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			blank = blank && strings.TrimSpace(lines[i]) == ""
			continue
		}
		f := fence{line: i + 1, info: strings.Fields(m[3]), adjacent: blank}
		indent, marker := m[1], m[2]
		for i++; ; i++ {
			if i == len(lines) {
				return nil, fmt.Errorf("%s:%d: a code block that does not end", page, f.line)
			}
			if strings.TrimSpace(lines[i]) == marker {
				break
			}
			f.body = append(f.body, strings.TrimPrefix(lines[i], indent))
		}
		fs = append(fs, f)
		blank = true
	}
	return fs, nil
}

// pageCommands reads the commands of a page's "sh" blocks with their
// outputs, and checks that every block says what it holds.
func pageCommands(page string, src []byte) ([]docCommand, error) {
	fs, err := fences(page, src)
	if err != nil {
		return nil, err
	}
	var cmds []docCommand
	lastSh := -1 // the index in cmds of the command of the "sh" block just before
	for _, f := range fs {
		if len(f.info) == 0 {
			return nil, fmt.Errorf("%s:%d: a code block without an info string: say what it holds (sh, output, go, yaml, text)", page, f.line)
		}
		switch f.info[0] {
		case "go", "yaml", "text":
			lastSh = -1
		case "output":
			if lastSh < 0 || !f.adjacent {
				return nil, fmt.Errorf("%s:%d: an output block that does not follow a sh block of one command", page, f.line)
			}
			cmds[lastSh].want, cmds[lastSh].wantShown = f.body, true
			lastSh = -1
		case "sh":
			c := docCommand{page: page}
			for _, w := range f.info[1:] {
				switch {
				case w == "sweep":
					c.sweep = true
				case w == "shared":
					c.shared = true
				case w == "interrupt":
					c.interrupt = true
				case w == "manual":
					c.manual = true
				case strings.HasPrefix(w, "exit="):
					if c.exit, err = strconv.Atoi(strings.TrimPrefix(w, "exit=")); err != nil {
						return nil, fmt.Errorf("%s:%d: %q: not an exit status", page, f.line, w)
					}
				default:
					return nil, fmt.Errorf("%s:%d: sh block: unknown word %q (exit=N, sweep, shared, interrupt, manual)", page, f.line, w)
				}
			}
			first := len(cmds)
			for i := 0; i < len(f.body); i++ {
				line := f.line + 1 + i
				text := strings.TrimSpace(f.body[i])
				for strings.HasSuffix(text, `\`) && i+1 < len(f.body) {
					i++
					text = strings.TrimSuffix(text, `\`) + " " + strings.TrimSpace(f.body[i])
				}
				if text == "" || strings.HasPrefix(text, "#") {
					continue
				}
				c.line, c.text = line, text
				if c.manual && manualCommands[text] == "" {
					return nil, fmt.Errorf("%s:%d: %q is in a sh manual block but not in manualCommands with its reason", page, line, text)
				}
				if !c.manual && manualCommands[text] != "" {
					return nil, fmt.Errorf("%s:%d: %q is in manualCommands: mark its block \"sh manual\"", page, line, text)
				}
				cmds = append(cmds, c)
			}
			lastSh = -1
			if len(cmds) == first+1 && !c.manual {
				lastSh = first
			} else if c.interrupt {
				return nil, fmt.Errorf("%s:%d: an interrupt block holds one command", page, f.line)
			}
		default:
			return nil, fmt.Errorf("%s:%d: a code block of %q: say what it holds (sh, output, go, yaml, text)", page, f.line, f.info[0])
		}
	}
	return cmds, nil
}

// runPage runs the commands of one page, in order, in one scratch
// directory.
func runPage(t *testing.T, root string, cmds []docCommand) {
	scratch := t.TempDir()
	if err := os.CopyFS(filepath.Join(scratch, "testdata"), os.DirFS(filepath.Join(root, "testdata"))); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOBIN="+filepath.Join(scratch, "bin"))
	if _, err := exec.LookPath("dot"); err != nil {
		// Graphviz renders DOT in CI; without it, a stand-in checks that
		// what it is given is a DOT graph, so that the ivc part of a
		// pipeline still runs.
		bin := filepath.Join(scratch, "graphviz")
		standIn := "#!/bin/sh\nout=/dev/stdout in=\nwhile [ $# -gt 0 ]; do case $1 in -o) out=$2; shift;; -o*) out=${1#-o};; -*) ;; *) in=$1;; esac; shift; done\n" +
			"grep -Eq '^(strict )?(di)?graph' ${in:-} || { echo 'dot (stand-in): not a DOT graph' >&2; exit 1; }\necho '<svg/>' >\"$out\"\n"
		if err := os.MkdirAll(bin, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, "dot"), []byte(standIn), 0o777); err != nil {
			t.Fatal(err)
		}
		env = append(env, "PATH="+bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
		t.Log("Graphviz dot not installed: a stand-in checks its input is a DOT graph")
	}
	for _, c := range cmds {
		if c.manual {
			continue // listed in manualCommands, with the reason
		}
		t.Run(strconv.Itoa(c.line), func(t *testing.T) {
			if c.sweep && !testutil.Sweep() {
				t.Skipf("sweep only: %s", c)
			}
			if c.shared {
				testutil.Shared(t)
			}
			runCommand(t, root, scratch, env, c)
		})
	}
}

var benchtime = regexp.MustCompile(`\s-benchtime[ =]\S+`)

// runCommand runs one command and checks its exit status and output.
func runCommand(t *testing.T, root, scratch string, env []string, c docCommand) {
	text := c.text
	if rest, ok := strings.CutPrefix(text, "go run ./cmd/ivc "); ok {
		text = "ivc " + rest // this test binary is ivc built from the tree
	}
	if lighter, ok := lighterCommands[text]; ok {
		text = lighter
	}
	if strings.HasPrefix(text, "go test ") && strings.Contains(text, " -bench ") {
		text = benchtime.ReplaceAllString(text, "") + " -benchtime 1x"
	}
	if c.interrupt {
		text = "exec " + text // the signal goes to the command itself
	}
	shell, args := "sh", []string{"-c", text}
	if bash, err := exec.LookPath("bash"); err == nil {
		shell, args = bash, []string{"-o", "pipefail", "-c", text}
	}
	limit := 2 * time.Minute
	if testutil.Sweep() {
		limit = 30 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, args...)
	cmd.Env = env
	cmd.Dir = scratch
	var before []string
	if strings.HasPrefix(text, "go ") {
		cmd.Dir = root
		before = entries(t, root)
	}
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	output := func() []string {
		return outputLines(stdout.String() + stderr.String())
	}
	if c.interrupt {
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		shown := normalizeLines(c.want)
		if i := slices.Index(shown, "..."); i >= 0 {
			shown = shown[:i]
		}
		deadline := time.After(time.Minute)
	wait:
		for {
			select {
			case <-done:
				break wait
			case <-deadline:
				t.Errorf("%s: after a minute it printed:\n%s", c, strings.Join(output(), "\n"))
				break wait
			case <-time.After(20 * time.Millisecond):
				if got := normalizeLines(output()); len(got) >= len(shown) && len(shown) > 0 && slices.Equal(got[:len(shown)], shown) ||
					len(shown) == 0 && len(got) > 0 {
					break wait
				}
			}
		}
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Log(err) // it has ended
		}
		<-done
	} else {
		_ = cmd.Wait()
	}
	if ctx.Err() != nil {
		t.Fatalf("%s: still running after %v", c, limit)
	}
	if got := cmd.ProcessState.ExitCode(); got != c.exit {
		t.Errorf("%s: %s, want exit status %d; it printed:\n%s", c, cmd.ProcessState, c.exit, strings.Join(output(), "\n"))
	}
	if c.wantShown && !matchLines(normalizeLines(c.want), normalizeLines(output())) {
		t.Errorf("%s: the output is not the page's (durations and node counts aside; ... for any lines).\nIt printed:\n%s\nThe page shows:\n%s",
			c, strings.Join(output(), "\n"), strings.Join(c.want, "\n"))
	}
	if before != nil {
		if after := entries(t, root); !slices.Equal(before, after) {
			t.Errorf("%s: it wrote into the clone: %v became %v", c, before, after)
		}
	}
}

// entries lists the names in a directory.
func entries(t *testing.T, dir string) []string {
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// outputLines splits an output into lines, without trailing blank ones.
func outputLines(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines
}

// nodeCounts are the node counts of ivc's outputs, which change with the
// engines' versions.
var nodeCounts = regexp.MustCompile(`\b\d+( nodes\b| of local analyses\b)|("(?:local_)?nodes":)\d+`)

// normalizeLines drops from lines what varies from run to run (durations,
// setup times) or from version to version (node counts), and trailing
// spaces.
func normalizeLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		l = untimed(l)
		l = nodeCounts.ReplaceAllString(l, "N$1$2")
		out[i] = strings.TrimRight(l, " \t")
	}
	return out
}

// matchLines reports whether got matches want, where a line "..." of want
// matches any lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if matchLines(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matchLines(want[1:], got[1:])
}

// lockedBuffer is a buffer a command writes while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var (
	// issueNumber is how an issue is named: "issue 25", "(issue 27)",
	// "#38".
	issueNumber = regexp.MustCompile(`(?i)\bissues? #?\d+|(^|[\s(])#\d+\b`)
	// link is a Markdown link's target.
	link = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// heading is a Markdown heading.
	heading = regexp.MustCompile(`(?m)^#+ (.*)$`)
)

// checkPage checks what a page says beside its commands: the README's
// length, no issue numbers (a reader has no issue tracker), and links to
// files and headings that exist.
func checkPage(t *testing.T, root, page string, src []byte) {
	if page == "README.md" {
		if n := bytes.Count(src, []byte("\n")); n > 250 {
			t.Errorf("README.md has %d lines: it is the front page, at most 250; the rest goes in docs/", n)
		}
	}
	for i, line := range strings.Split(string(src), "\n") {
		if m := issueNumber.FindString(line); m != "" {
			t.Errorf("%s:%d: %q: say what the issue asked, not its number", page, i+1, strings.TrimSpace(m))
		}
	}
	for _, m := range link.FindAllStringSubmatch(string(src), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		path := filepath.Join(root, filepath.Dir(page), file)
		if file == "" {
			path = filepath.Join(root, page)
		}
		dst, err := os.ReadFile(path)
		if err != nil {
			if _, serr := os.Stat(path); serr != nil {
				t.Errorf("%s: a link to %s: %v", page, target, serr)
			}
			continue
		}
		if anchor == "" {
			continue
		}
		found := false
		for _, h := range heading.FindAllStringSubmatch(string(dst), -1) {
			found = found || slug(h[1]) == anchor
		}
		if !found {
			t.Errorf("%s: a link to %s: %s has no such heading", page, target, file)
		}
	}
}

// slug is the anchor GitHub gives a heading: lower case, spaces as
// hyphens, punctuation dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
