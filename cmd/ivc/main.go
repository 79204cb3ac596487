// Command ivc checks multi-traces (per-machine logs of a distributed system)
// against interactions (sequence-diagram-like specifications), offline. It
// reads the file formats of the HIBOU tool: .hsf signatures, .hif
// interactions, .htf multi-traces and .hcf option files.
//
//	ivc analyze abp.hsf traces/        # a verdict per multi-trace
//	ivc stats abp.hsf --format json    # size of the interaction
//	ivc fmt -l models/                 # files not in canonical form
//
// Exit status: 0 when every verdict is Pass or WeakPass, 1 when any is Fail
// or Inconc, 2 on a usage or input error. Errors go to stderr as
// file:line:col: message.
//
// # Adding a command
//
// A command lives in one file of this directory that defines a constructor
//
//	func newFooCmd(a *app) *cobra.Command
//
// and is registered by one line, newFooCmd, in the commands list of root.go.
// The app gives it what every command shares:
//
//   - its output streams, a.stdout and a.stderr, and the global --format
//     flag: a.json() reports --format json;
//   - what else it takes from its process, in a.env: standard input
//     (a.stdin), environment variables (a.getenv) and the signals that stop
//     it (a.interrupted), never os.Stdin, os.Getenv or signal.Notify, so that
//     runs can share a process (the script tests run ivc in-process);
//   - its arguments: a.loadSpec(args) loads SPEC [HIF] and returns the
//     arguments after them (a.specArgs only splits them), a.expand turns
//     files and directories into a sorted list of files;
//   - errors: return a.usagef(...) for a mistake in the command line (status
//     2, with a hint to --help), return any other error for an input error
//     (status 2, printed as is: file:line:col: message); in a batch, call
//     a.report(err) for a bad file and go on, and a.fail() for a Fail or
//     Inconc verdict (status 1). Wrap cobra's argument checks with a.args so
//     that they count as usage errors.
//
// Give the command a Use line, a Long help and an Example, and a script test
// in testdata/script at the top of the module (one per user story).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ivc-project/ivc/internal/atomicfile"
)

func main() {
	// Interrupted: no temporary file of a write under way is left behind
	// (the file it replaces stays as it was), and the status is the
	// shell's for SIGINT. A command that stops on its own when
	// interrupted (a.interrupted: ivc monitor judges what it holds, then
	// exits 0) is left to it, but for a second signal.
	interrupt := make(chan os.Signal, 2)
	signal.Notify(interrupt, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-interrupt
		if stopsItself.Load() {
			<-interrupt
		}
		atomicfile.RemoveTemps()
		flushOutputs(time.Second) // the results judged so far
		os.Exit(130)
	}()
	// IVC_CPUPROFILE: a CPU profile of the run to this file (for
	// profiling ivc monitor as the peers benchmark runs it, a process
	// of its own).
	if path := os.Getenv("IVC_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.StartCPUProfile(f) // written by StopCPUProfile, before exit
		}
	}
	status := run(os.Args[1:], osEnv())
	pprof.StopCPUProfile()
	// Close reports what a write may not have yet (a file system that
	// writes back late): results lost there are an error too.
	if err := os.Stdout.Close(); err != nil && status < exitInput {
		fmt.Fprintf(os.Stderr, "ivc: cannot write the results to standard output: %v\n", err)
		status = exitInput
	}
	os.Exit(status)
}

// stopsItself is set once the command run stops on its own at SIGINT or
// SIGTERM (it called env.interrupted).
var stopsItself atomic.Bool

// osEnv is the env of the process: its standard streams, its environment
// and its signals.
func osEnv() env {
	return env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv,
		interrupted: func() (context.Context, context.CancelFunc) {
			stopsItself.Store(true)
			return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		},
	}
}
