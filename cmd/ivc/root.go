package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// commands builds the subcommands of ivc, one constructor per file.
var commands = []func(a *app) *cobra.Command{
	newAnalyzeCmd,
	newMonitorCmd,
	newFmtCmd,
	newStatsCmd,
	newNFACmd,
	newDotCmd,
	newDrawCmd,
	newGenCmd,
	newInferCmd,
	newCompileCmd,
}

// Exit statuses (SPEC §5).
const (
	exitOK    = 0 // every verdict is Pass or WeakPass
	exitFail  = 1 // some verdict is Fail or Inconc
	exitInput = 2 // a usage or input error
)

// locationsHelp is the help of every --locations flag: one grammar,
// interaction.ParseLocations's, for every command.
const locationsHelp = "the locations (groups of lifelines that share a clock): " + interaction.LocationsSyntax + "; default discrete"

// env is what a run of ivc takes from its process, handed to run rather
// than read from os globals so that runs can share a process (the script
// tests run ivc in-process, several at a time): the standard streams, the
// environment variables and the signals that stop a long run. main passes
// the process's own (osEnv). Relative paths are still the process's working
// directory's: the libraries open paths as given, and name them so in
// errors.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(key string) string
	// interrupted returns the context a command that runs until stopped
	// (ivc monitor) runs in: done at SIGINT or SIGTERM for a process.
	interrupted func() (context.Context, context.CancelFunc)
}

// app is the state that every command shares: its process's env (stdout
// gathering its writes and keeping the first write error, stderr flushing
// it first: output), global flags and the exit status built up while a
// command runs.
type app struct {
	env
	format string // --format: text or json
	status int
	cmd    *cobra.Command // the command being run, for usage hints

	// selfMessages is --self-messages: what a diagram's self-message is,
	// note or message.
	selfMessages string
}

// json reports whether --format json was given.
func (a *app) json() bool { return a.format == "json" }

// report prints an input error (file:line:col: message) and makes the exit
// status 2, for a bad file in a batch that goes on with the others.
func (a *app) report(err error) {
	fmt.Fprintln(a.stderr, err)
	a.raise(exitInput)
}

// warnf prints a warning that does not change the exit status.
func (a *app) warnf(format string, args ...any) {
	fmt.Fprintf(a.stderr, format+"\n", args...)
}

// warn prints warnings about the input files (file:line:col: warning:
// ...), which do not change the exit status.
func (a *app) warn(warnings []error) {
	for _, w := range warnings {
		fmt.Fprintln(a.stderr, w)
	}
}

// fail records a Fail or Inconc verdict: exit status 1 unless worse.
func (a *app) fail() { a.raise(exitFail) }

func (a *app) raise(status int) { a.status = max(a.status, status) }

// usageError is a mistake in the command line rather than in an input file.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a usage error: ivc prints it with a hint to --help and
// exits with status 2.
func (a *app) usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// args wraps a cobra argument check so that its errors are usage errors.
func (a *app) args(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return &usageError{err}
		}
		return nil
	}
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "ivc",
		Short: "Runtime verification of distributed systems against interactions: logs, traces, live",
		Long: `ivc checks what a distributed system did against interactions
(sequence-diagram specifications): each session of its logs or traces gets
a verdict, Pass, WeakPass (a prefix: the logs may stop early), Fail (with
where it stopped, down to the file:line and the span) or Inconc.

  analyze   logs and traces after the fact: event logs (JSON Lines, CSV),
            traces (OTLP JSON or protobuf, Jaeger, Zipkin, Tempo, the Go
            SDK's stdouttrace), .htf multi-traces; joined across files
  monitor   live traffic: OTLP over gRPC and HTTP, followed log files
  compile   a verifier of the spec as a standalone Go package
  draw      the spec, or a session with its verdict, as a diagram
  gen       sample multi-traces of a spec (accepted, prefixes, mutants)

Specs are HIBOU's files (.hsf signature, .hif interaction, .hcf options)
or sequence diagrams.

A sequence diagram is a spec too, wherever a command takes SPEC [HIF]: a
Mermaid sequenceDiagram (.mmd, .mermaid), a PlantUML one (.puml,
.plantuml), or a diagram of a Markdown file (.md), in a ` + "```mermaid" + ` or
` + "```plantuml" + ` block (FILE.md#N for the N-th, FILE.md#slug for the one under
the heading of that GitHub anchor). Alone, it is the whole spec: each
participant is a lifeline named by its display name (its id an alias),
each arrow a message named by its text; beside a .hsf, it is the
interaction. A self-message is a note unless --self-messages message. See
docs/diagrams.md.

Exit status: 0 when every verdict is Pass or WeakPass, 1 when any is Fail or
Inconc, 2 on a usage or input error (reported on stderr as file:line:col).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			a.cmd = cmd
			if a.format != "text" && a.format != "json" {
				return a.usagef("invalid --format %q: want text or json", a.format)
			}
			if a.selfMessages != "note" && a.selfMessages != "message" {
				return a.usagef("invalid --self-messages %q: want note or message", a.selfMessages)
			}
			return nil
		},
	}
	root.PersistentFlags().StringVar(&a.format, "format", "text", "output format, `text|json`")
	root.PersistentFlags().StringVar(&a.selfMessages, "self-messages", "note", "a diagram's self-message (A->>A), `note|message`: a note (no event in traces), or a message whose two actions traces hold")
	root.Version = version()
	root.SetVersionTemplate("ivc {{.Version}}\n")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return &usageError{err} })
	root.CompletionOptions.DisableDefaultCmd = true
	for _, newCmd := range commands {
		cmd := newCmd(a)
		// pflag prints the notice of a deprecated flag (gen --partition) to
		// its flag set's output, which cobra would copy to stdout, into
		// --format json output: it is a warning, for stderr.
		cmd.Flags().SetOutput(a.stderr)
		root.AddCommand(cmd)
	}
	return root
}

// run runs ivc with the command-line arguments args (without the program
// name) and returns its exit status.
func run(args []string, e env) (status int) {
	out := newOutput(e.stdout)
	stderr := e.stderr
	if sameDestination(e.stdout, e.stderr) {
		stderr = flushFirst{out, e.stderr} // what stderr says comes after the results before it
	}
	a := &app{env: e}
	a.stderr = stderr
	defer func() {
		if err := a.internalError(recover()); err != nil {
			fmt.Fprintf(stderr, "ivc: %v\n", err)
			status = exitInput
		}
		out.Close()
	}()
	a.stdout = out
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		if werr := out.Close(); werr != nil {
			// Results lost (a full disk, a closed pipe): never exit 0 on them.
			fmt.Fprintf(stderr, "ivc: cannot write the results to standard output: %v\n", werr)
			return exitInput
		}
		return a.status
	}
	var se *check.SettingError
	if errors.As(err, &se) {
		err = settingError(se)
	}
	var ue *usageError
	if errors.As(err, &ue) || a.cmd == nil {
		// Cobra's own errors (unknown command or flag, wrong number of
		// arguments) come before the command runs, and are usage errors.
		fmt.Fprintf(stderr, "%s: %v\nRun '%s --help' for usage.\n", cmd.CommandPath(), err, cmd.CommandPath())
	} else {
		fmt.Fprintln(stderr, err)
	}
	return exitInput
}

// internalError turns the value of recover() into an error, nil when there
// was no panic. A panic is a bug of ivc, never the user's: it is reported as
// such, with its stack trace only when IVC_DEBUG=1.
func (a *app) internalError(v any) error {
	if v == nil {
		return nil
	}
	return a.describe(&check.PanicError{Value: v, Stack: debug.Stack()})
}

// describe adds its stack trace to an internal error when IVC_DEBUG=1.
func (a *app) describe(err error) error {
	var pe *check.PanicError
	if errors.As(err, &pe) && a.getenv("IVC_DEBUG") == "1" {
		return fmt.Errorf("%w\n%s", err, pe.Stack)
	}
	return err
}

// isTerminal reports whether w is a terminal, where progress may be drawn
// (a character device such as /dev/null is not one).
func isTerminal(w io.Writer) bool {
	if f, ok := w.(flushFirst); ok {
		w = f.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
