package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/internal/memlimit"
	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
	"github.com/spf13/cobra"
)

// monitorFlags are the flags of ivc monitor.
type monitorFlags struct {
	analyzeFlags
	otlpHTTP, otlpGRPC, metrics string
	follow                      []string
	output                      string
	opt                         monitor.Options
	maxSessionMemory            byteSize
	requests                    receiver.Limits
	maxRequestSize              byteSize
	shutdownGrace               time.Duration
	hugePages                   bool
}

// defaultShutdownGrace is how long ivc monitor waits at shutdown for the
// OTLP requests under way: within Kubernetes' 30 s between SIGTERM and
// SIGKILL, with room to judge the open sessions and write their records.
const defaultShutdownGrace = 10 * time.Second

// monitorListening is told where each receiver listens (a variable for
// tests).
var monitorListening = func(what, addr string) {}

func newMonitorCmd(a *app) *cobra.Command {
	var fl monitorFlags
	cmd := &cobra.Command{
		Use:   "monitor SPEC [HIF]",
		Short: "Give verdicts on live traffic: OpenTelemetry traces (OTLP) and log streams",
		Long: `Monitor receives events while the system runs, groups them into sessions
(a trace id, a JSON Lines session), and judges each session when it is over,
exactly as ivc analyze judges it: after --session-idle without a new event,
--session-max after its first event, or at shutdown. It prints one JSON
record per session and line (ivc analyze --format json's, plus revision,
closed_by idle|max|early|evicted|shutdown and latency_us, the time from the
session's last event to its verdict) on standard output or --output FILE
(appended; reopened on SIGHUP; never a followed file), and each Fail also
on stderr as text.

Early failure: when the automata engine judges (--engine automata, or auto
when the spec compiles), an event that makes a local error certain fails
its session at once (closed_by early, judged on its events so far): in
line order (events with neither seq nor time), an event its location's
projection DFA cannot read; with a seq or a time, where events may still
arrive before it, an event after which no trace of its location holds the
location's events as a subsequence. Later events of the session re-open it
for a revision.

Inputs, any mix:
  --otlp-grpc ADDR   OTLP/gRPC (default 127.0.0.1:4317; "" turns it off)
  --otlp-http ADDR   OTLP/HTTP at /v1/traces, protobuf or JSON, gzip or not
                     (default 127.0.0.1:4318; "" turns it off)
  --follow FILE      a JSON Lines log followed as tail -F does (rotation,
                     truncation); "-" is standard input; repeatable
Spans map to actions as ivc analyze maps OTLP (--lifeline-attr,
--message-attr); JSON Lines events as its event logs (--field).

An event of a session closed less than --session-grace ago re-opens it, and
its next record has revision 2, 3, ...; later, it is counted as late. When
--max-sessions sessions are open, or --max-session-memory is held (default:
a quarter of the available memory), the oldest open session is judged
early (closed_by evicted); a session is evicted once, its later events
counted late. As the OTLP specification asks, the receivers answer
saturated (--max-requests being decoded) with 429 / RESOURCE_EXHAUSTED and
a retry delay, a request past --max-request-size decoded with 413 /
RESOURCE_EXHAUSTED without one, and a body that is not one OTLP request
with 400 / INVALID_ARGUMENT.

A record that cannot be written (a full disk) is reported on stderr when it
happens and counted; /healthz fails until records are written again, and
the exit status is 2.

SIGINT or SIGTERM: stop accepting; within --shutdown-grace, finish the
requests under way (then close every connection) and read the followed
files to their end (standard input: what it has given); judge every open
session, print a summary line (received = judged + ignored + malformed +
late; an event read after its session was judged at shutdown is late) on
stderr, exit 0. What the followed files held past the grace is reported,
with exit status 2.`,
		Example: `  ivc monitor abp.hsf abp.hif
  ivc monitor --otlp-grpc "" --otlp-http 127.0.0.1:4318 --output verdicts.jsonl abp.hsf
  ivc monitor --otlp-grpc "" --otlp-http "" --follow app.jsonl abp.hsf`,
		Args: a.args(cobra.RangeArgs(1, 2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.monitor(cmd, &fl, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.otlpGRPC, "otlp-grpc", "127.0.0.1:4317", "the OTLP/gRPC receiver's `ADDR` (\"\": none)")
	f.StringVar(&fl.otlpHTTP, "otlp-http", "127.0.0.1:4318", "the OTLP/HTTP receiver's `ADDR` (\"\": none)")
	f.StringArrayVar(&fl.follow, "follow", nil, "follow the JSON Lines log `FILE` as tail -F does (\"-\": standard input; repeatable)")
	f.StringVar(&fl.output, "output", "", "append the records to `FILE` (reopened on SIGHUP) instead of standard output")
	f.StringVar(&fl.metrics, "metrics", "", "serve /metrics (Prometheus), /healthz and /readyz on `ADDR`")
	f.DurationVar(&fl.opt.Idle, "session-idle", monitor.DefaultIdle, "close a session after this long without a new event (twice the Collector's group-by-trace wait)")
	f.DurationVar(&fl.opt.Max, "session-max", monitor.DefaultMax, "close a session this long after its first event")
	f.DurationVar(&fl.opt.Grace, "session-grace", monitor.DefaultGrace, "re-open a closed session for an event this long after it closed")
	f.IntVar(&fl.opt.MaxSessions, "max-sessions", monitor.DefaultMaxSessions, "open sessions at most; past it the oldest is judged early")
	f.Var(&fl.maxSessionMemory, "max-session-memory", "bytes of sessions held at most, e.g. 1GiB (0: a quarter of the available memory); past it the oldest is judged early")
	f.IntVar(&fl.requests.Requests, "max-requests", receiver.DefaultMaxRequests, "OTLP requests decoded at once; past it, answered saturated (429, RESOURCE_EXHAUSTED) to be retried")
	fl.maxRequestSize = receiver.DefaultRequestBytes
	f.Var(&fl.maxRequestSize, "max-request-size", "what one OTLP request may take decoded (estimated before decoding), e.g. 64MiB; past it, refused (413, RESOURCE_EXHAUSTED)")
	f.BoolVar(&fl.hugePages, "huge-pages", true, "ask Linux for transparent huge pages on the heap as it grows (where the host's setting is madvise): fewer page faults as sessions are held")
	f.DurationVar(&fl.shutdownGrace, "shutdown-grace", defaultShutdownGrace, "at SIGTERM, how long to wait for the OTLP requests under way (then their connections are closed) and for the followed files to be read to their end (what is left is reported, exit status 2)")
	f.StringVar(&fl.mode, "mode", "prefix", "the question asked, `accept|prefix|slice`")
	f.StringVar(&fl.engine, "engine", "auto", "the analysis engine, `auto|runtime|automata`")
	f.StringVar(&fl.locations, "locations", "", "the locations of the events, `\"a,b;c\"` (default: one per lifeline)")
	f.DurationVar(&fl.timeout, "timeout", 0, "time budget per session, e.g. 5s (0: none); Inconc when hit")
	f.StringVar(&fl.options, "options", "", "take defaults from the @analyze_option of `FILE.hcf` (HIBOU options)")
	f.StringArrayVar(&fl.logs.fields, "field", nil, "a JSON Lines event's field for a role, `ROLE=NAME` (repeatable)")
	f.StringVar(&fl.logs.lifelineAttr, "lifeline-attr", "", "OTLP: the attribute naming a span's lifeline (default service.name, then process.executable.name)")
	f.StringVar(&fl.logs.messageAttr, "message-attr", "", "OTLP: the attribute naming a span's message (default: the first of the span's names that the spec declares; see docs/logs.md)")
	f.BoolVar(&fl.logs.strict, "strict", false, "an event outside the signature is an error (default: ignored and counted)")
	f.Var(&fl.maxLine, "max-line", "followed files: "+maxLineHelp)
	f.StringVar(&fl.traceURL, "trace-url", "", traceURLHelp)
	repairFlags(cmd, &fl.analyzeFlags)
	fl.jobs = 1
	return cmd
}

// monitor runs ivc monitor SPEC [HIF].
func (a *app) monitor(cmd *cobra.Command, fl *monitorFlags, args []string) error {
	hsf, hif, rest, err := a.specArgs(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return a.usagef("unexpected argument %s (want SPEC [HIF])", rest[0])
	}
	sp, err := a.specOptions().Load(hsf, hif)
	if err != nil {
		return err
	}
	a.warn(sp.Warnings)
	set := settings(cmd, &fl.analyzeFlags)
	opts, warnings, err := set.Options(sp)
	for _, w := range warnings {
		a.warnf("%s", w)
	}
	if err != nil {
		return err
	}
	c, err := check.New(sp, opts)
	if err != nil {
		return err
	}
	fl.logs.format, fl.logs.sessionScope = "jsonl", "run" // a session is its id across every source
	src, err := a.logSource(&fl.analyzeFlags, sp)
	if err != nil {
		return err
	}
	lopt := src.Options
	if err := checkFollowOutput(fl.output, fl.follow); err != nil {
		return err
	}
	var errMu sync.Mutex
	stderr := func(f func(w io.Writer)) {
		errMu.Lock()
		defer errMu.Unlock()
		f(a.stderr)
	}
	opt := fl.opt
	opt.MaxMemory = int64(fl.maxSessionMemory) // 0: the table's default, a quarter of the available memory
	opt.Report = func(err error) { stderr(func(w io.Writer) { fmt.Fprintf(w, "ivc: %v\n", err) }) }
	out, err := openOutput(fl.output, a.stdout, opt.Report)
	if err != nil {
		return err
	}
	opt.Ticked = out.flush
	// JSON records unless text is asked for: the records are what a
	// pipeline reads, text what a reader watches.
	out.text = cmd.Flags().Changed("format") && a.format == "text"
	defer out.Close()
	met := newMetrics()
	t, err := monitor.NewTable(c, lopt, opt, func(o check.Outcome) {
		met.observe(&o)
		out.write(&o)
		if o.Result.Verdict == verdict.Fail && !out.text {
			stderr(o.WriteText)
		}
	})
	if err != nil {
		return err
	}
	// The OTLP requests being read and decoded take at most as much as
	// the sessions by default.
	lim := fl.requests
	lim.RequestBytes = int64(fl.maxRequestSize)
	lim.Memory = min(receiver.DefaultMemory, monitor.DefaultMaxMemory())
	if lim.RequestBytes > lim.Memory {
		lim.Memory = lim.RequestBytes
	}
	otlp := receiver.NewOTLPLimits(t, lim)

	ctx, stop := a.interrupted()
	defer stop()
	if fl.hugePages {
		defer memlimit.HugePages(0, opt.Report)() // nothing reported after the monitor returns
	}
	// servers stop each server: at once when ctx is done, else after the
	// requests under way.
	var servers []func(ctx context.Context)
	var wg sync.WaitGroup
	listen := func(what, addr string) (net.Listener, error) {
		ln, err := receiver.Listen(addr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		fmt.Fprintf(a.stderr, "ivc monitor: %s listening on %s\n", what, ln.Addr())
		monitorListening(what, ln.Addr().String())
		return ln, nil
	}
	stopServers := func(grace time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		var wg sync.WaitGroup
		for _, s := range servers {
			wg.Go(func() { s(ctx) })
		}
		wg.Wait()
		servers = nil
	}
	defer stopServers(0)
	if fl.otlpGRPC != "" {
		ln, err := listen("OTLP/gRPC", fl.otlpGRPC)
		if err != nil {
			return err
		}
		s := otlp.NewGRPCServer()
		go s.Serve(ln)
		servers = append(servers, func(ctx context.Context) {
			done := make(chan struct{})
			go func() { s.GracefulStop(); close(done) }()
			select {
			case <-done:
			case <-ctx.Done():
				s.Stop() // closes the connections, and so ends GracefulStop
				<-done
			}
		})
	}
	serveHTTP := func(what, addr string, h http.Handler) error {
		ln, err := listen(what, addr)
		if err != nil {
			return err
		}
		s := receiver.NewHTTPServer(h)
		go s.Serve(ln)
		servers = append(servers, func(ctx context.Context) {
			if s.Shutdown(ctx) != nil {
				s.Close()
			}
		})
		return nil
	}
	if fl.otlpHTTP != "" {
		mux := http.NewServeMux()
		mux.Handle("/v1/traces", otlp.HTTPHandler())
		if err := serveHTTP("OTLP/HTTP", fl.otlpHTTP, mux); err != nil {
			return err
		}
	}
	if fl.metrics != "" {
		if err := serveHTTP("metrics", fl.metrics, met.handler(t, otlp, out)); err != nil {
			return err
		}
	}
	halt := make(chan struct{})
	left := make([]receiver.Left, len(fl.follow))
	fopt := receiver.FollowOptions{Poll: 100 * time.Millisecond, Halt: halt, Warn: opt.Report}
	for i, path := range fl.follow {
		wg.Go(func() {
			// Standard input is read until shutdown, then what it has
			// given; a file to its end.
			var err error
			if left[i], err = receiver.FollowLog(ctx, t, path, a.stdin, fopt); err != nil {
				opt.Report(err)
			}
		})
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go t.Run(ctx)
	met.setReady(true)
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-hup:
			if err := out.reopen(); err != nil {
				opt.Report(err)
			}
		}
	}
	// Stop accepting (the servers finish the requests under way within the
	// grace, then close their connections), read the followed files to
	// their end within the grace, then judge what is open.
	deadline := time.Now().Add(fl.shutdownGrace)
	met.setReady(false)
	stopServers(fl.shutdownGrace)
	waitFollowers(&wg, halt, deadline)
	t.Close()
	n, r := t.Counts(), otlp.Counts()
	var vs []string
	for v, k := range n.Verdicts {
		if k > 0 {
			vs = append(vs, fmt.Sprintf("%d %s", k, verdict.Verdict(v)))
		}
	}
	if len(vs) == 0 {
		vs = append(vs, "none")
	}
	refused := ""
	if r.TooLarge > 0 {
		refused = fmt.Sprintf(", %d too large", r.TooLarge)
	}
	fmt.Fprintf(a.stderr, "ivc monitor: %d records (%s; %d evicted); %d events received = %d judged + %d ignored + %d malformed + %d late + %d duplicates; %d spans without a protocol kind; %d requests refused saturated, %d undecodable%s\n",
		n.Judged(), strings.Join(vs, ", "), n.Evicted, n.Received, n.Events, n.Ignored, n.Malformed, n.Late, n.Duplicates, n.Unkinded, r.Rejected, r.Malformed, refused)
	n.WritePatterns(a.stderr, 0)
	err = out.Close()
	if k := out.unwritten.Load(); k > 0 {
		return fmt.Errorf("ivc monitor: %d records not written to %s", k, out.name())
	}
	var unread []string
	for i, l := range left {
		switch {
		case l.Bytes > 0:
			unread = append(unread, fmt.Sprintf("%s: %d bytes", syntax.FileName(fl.follow[i]), l.Bytes))
		case l.Halted && fl.follow[i] == input.Stdin:
			unread = append(unread, "standard input: still writing")
		}
	}
	if len(unread) > 0 && err == nil {
		err = fmt.Errorf("left unread at the end of the shutdown grace (%v, --shutdown-grace): %s", fl.shutdownGrace, strings.Join(unread, "; "))
	}
	return err
}

// waitFollowers waits for the readers of --follow, which end at their
// file's end once the context is done, and standard input once it has
// handed over what it read, until the deadline: then it halts them (what
// they leave unread, they report) and waits for them to stop.
func waitFollowers(wg *sync.WaitGroup, halt chan struct{}, deadline time.Time) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Until(deadline)):
		close(halt)
		<-done
	}
}

// checkFollowOutput refuses an output that is one of the followed files
// (the same file by any name, or the same path when neither exists yet):
// each record would be read back as an event, re-open its session and
// write another record, without end.
func checkFollowOutput(output string, follow []string) error {
	if output == "" {
		return nil
	}
	oi, oerr := os.Stat(output)
	oabs, _ := filepath.Abs(output)
	for _, path := range follow {
		if path == input.Stdin {
			continue
		}
		fi, err := os.Stat(path)
		same := err == nil && oerr == nil && os.SameFile(oi, fi)
		if abs, _ := filepath.Abs(path); abs == oabs {
			same = true
		}
		if same {
			return fmt.Errorf("--output %s: is the followed file %s: its records would be read back as events", syntax.FileName(output), syntax.FileName(path))
		}
	}
	return nil
}

// recordOutput writes records as JSON lines (or ivc analyze's text), to a
// file reopened on SIGHUP (for log rotation) or to standard output. Records
// are gathered and written together, whole, by flush: at each of the
// table's checks for sessions to close (Options.Ticked), when they reach
// recordBuffer bytes, before a reopen and at Close; one write(2) per record
// was a tenth of the monitor's time under load. A record that cannot be
// written (a full disk) is counted, and the error reported when it
// happens; the next records are tried afresh, and healthy says whether the
// last were written.
type recordOutput struct {
	text   bool // ivc analyze's text, not JSON lines
	mu     sync.Mutex
	path   string
	out    io.Writer // where the records go
	f      *os.File  // nil for standard output
	report func(error)
	failed bool // the last records were not written

	buf  bytes.Buffer // records not written yet
	ends []int        // where each record of buf ends

	unwritten atomic.Int64 // records not written
}

// recordBuffer is what recordOutput gathers at most before it writes.
const recordBuffer = 64 << 10

func openOutput(path string, stdout io.Writer, report func(error)) (*recordOutput, error) {
	o := &recordOutput{path: path, report: report}
	if path == "" {
		o.out = stdout
		return o, nil
	}
	return o, o.reopen()
}

// name names where the records go.
func (o *recordOutput) name() string {
	if o.path == "" {
		return "standard output"
	}
	return o.path
}

func (o *recordOutput) reopen() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.path == "" {
		return nil
	}
	f, err := os.OpenFile(o.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if o.f != nil {
		o.flushLocked()
		o.f.Close()
	}
	o.f, o.out = f, f
	return nil
}

// write adds one record, written at the next flush.
func (o *recordOutput) write(out *check.Outcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.text {
		out.WriteText(&o.buf)
	} else {
		line, err := out.Record().AppendJSON(o.buf.AvailableBuffer())
		if err != nil {
			o.unwritten.Add(1)
			o.report(fmt.Errorf("the record of session %s not written: %w", syntax.FileName(out.ID), err))
			return
		}
		o.buf.Write(line)
		o.buf.WriteByte('\n')
	}
	o.ends = append(o.ends, o.buf.Len())
	if o.buf.Len() >= recordBuffer {
		o.flushLocked()
	}
}

// flush writes the records gathered so far.
func (o *recordOutput) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
}

// flushLocked writes the records gathered in one write and returns its
// error. The records a failed write did not take whole are counted
// unwritten and dropped.
func (o *recordOutput) flushLocked() error {
	if len(o.ends) == 0 {
		return nil
	}
	n, err := o.out.Write(o.buf.Bytes())
	if f, ok := o.out.(*output); ok && err == nil {
		// Standard output: written now, not gathered again; what a
		// failed flush wrote of them is not known.
		if err = f.Flush(); err != nil {
			n = 0
		}
	}
	written := len(o.ends)
	if err != nil {
		written = 0
		for written < len(o.ends) && o.ends[written] <= n {
			written++
		}
		o.cut(n, written)
	}
	o.unwritten.Add(int64(len(o.ends) - written))
	o.buf.Reset()
	o.ends = o.ends[:0]
	switch {
	case err != nil:
		if !o.failed {
			o.report(fmt.Errorf("a record not written to %s (and the next ones, until one is): %w", o.name(), err))
		}
		o.failed = true
	case o.failed:
		o.failed = false
		o.report(fmt.Errorf("records written to %s again, %d not written so far", o.name(), o.unwritten.Load()))
	}
	return err
}

// cut takes back, from a file, the start of a record a failed write took
// in part (n bytes of the buffer, of which the first written records
// whole), so that the next records do not continue a broken line. Standard
// output cannot be taken back: a pipe reader sees the broken line.
func (o *recordOutput) cut(n, written int) {
	whole := 0
	if written > 0 {
		whole = o.ends[written-1]
	}
	if o.f == nil || n <= whole {
		return
	}
	if fi, err := o.f.Stat(); err == nil && fi.Size() >= int64(n-whole) {
		o.f.Truncate(fi.Size() - int64(n-whole)) // the file is opened O_APPEND: the next write goes to its new end
	}
}

// healthy returns why the last records were not written, or nil.
func (o *recordOutput) healthy() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.failed {
		return fmt.Errorf("records not written to %s: %d so far", o.name(), o.unwritten.Load())
	}
	return nil
}

func (o *recordOutput) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	err := o.flushLocked()
	if o.f != nil {
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		o.f = nil
	}
	return err
}
