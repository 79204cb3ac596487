package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/monitor"
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
}

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
(appended; reopened on SIGHUP), and each Fail also on stderr as text.

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
--max-sessions sessions are open, or --max-session-memory is held, the
oldest open session is judged early (closed_by evicted). When saturated the
OTLP receivers answer 429 / RESOURCE_EXHAUSTED with a retry delay.

SIGINT or SIGTERM: stop accepting (standard input: what it has given is
read), judge every open session, print a summary line (received = judged +
ignored + malformed + late; an event read after its session was judged at
shutdown is late) on stderr, exit 0.`,
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
	f.Var(&fl.maxSessionMemory, "max-session-memory", "bytes of sessions held at most, e.g. 1GiB (0: no bound); past it the oldest is judged early")
	f.StringVar(&fl.mode, "mode", "prefix", "the question asked, `accept|prefix|slice`")
	f.StringVar(&fl.engine, "engine", "auto", "the analysis engine, `auto|runtime|automata`")
	f.StringVar(&fl.locations, "locations", "", "the locations of the events, `\"a,b;c\"` (default: one per lifeline)")
	f.DurationVar(&fl.timeout, "timeout", 0, "time budget per session, e.g. 5s (0: none); Inconc when hit")
	f.StringVar(&fl.options, "options", "", "take defaults from the @analyze_option of `FILE.hcf` (HIBOU options)")
	f.StringArrayVar(&fl.logs.fields, "field", nil, "a JSON Lines event's field for a role, `ROLE=NAME` (repeatable)")
	f.StringVar(&fl.logs.lifelineAttr, "lifeline-attr", "", "OTLP: the attribute naming a span's lifeline (default service.name)")
	f.StringVar(&fl.logs.messageAttr, "message-attr", "", "OTLP: the attribute naming a span's message (default messaging.destination.name, then rpc.method, then the span name)")
	f.BoolVar(&fl.logs.strict, "strict", false, "an event outside the signature is an error (default: ignored and counted)")
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
	out, err := openOutput(fl.output, a.stdout)
	if err != nil {
		return err
	}
	defer out.Close()
	var errMu sync.Mutex
	stderr := func(f func(w io.Writer)) {
		errMu.Lock()
		defer errMu.Unlock()
		f(a.stderr)
	}
	opt := fl.opt
	opt.MaxMemory = int64(fl.maxSessionMemory)
	opt.Report = func(err error) { stderr(func(w io.Writer) { fmt.Fprintf(w, "ivc: %v\n", err) }) }
	met := newMetrics()
	t, err := monitor.NewTable(c, lopt, opt, func(o check.Outcome) {
		met.observe(&o)
		out.write(o.Record())
		if o.Result.Verdict == verdict.Fail {
			stderr(o.WriteText)
		}
	})
	if err != nil {
		return err
	}
	otlp := receiver.NewOTLP(t, 0)

	ctx, stop := a.interrupted()
	defer stop()
	var servers []func()
	var wg sync.WaitGroup
	listen := func(what, addr string) (net.Listener, error) {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		fmt.Fprintf(a.stderr, "ivc monitor: %s listening on %s\n", what, ln.Addr())
		monitorListening(what, ln.Addr().String())
		return ln, nil
	}
	defer func() {
		for _, s := range servers {
			s()
		}
	}()
	if fl.otlpGRPC != "" {
		ln, err := listen("OTLP/gRPC", fl.otlpGRPC)
		if err != nil {
			return err
		}
		s := otlp.NewGRPCServer()
		go s.Serve(ln)
		servers = append(servers, s.GracefulStop)
	}
	serveHTTP := func(what, addr string, h http.Handler) error {
		ln, err := listen(what, addr)
		if err != nil {
			return err
		}
		s := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		go s.Serve(ln)
		servers = append(servers, func() { s.Shutdown(context.Background()) })
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
		if err := serveHTTP("metrics", fl.metrics, met.handler(t, otlp)); err != nil {
			return err
		}
	}
	for _, path := range fl.follow {
		wg.Go(func() {
			// Standard input is read until shutdown, then what it has
			// given; a file to its end.
			if err := receiver.FollowLog(ctx, t, path, a.stdin, 100*time.Millisecond); err != nil {
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
	// Stop accepting (the servers finish the requests under way), read the
	// followed files to their end, then judge what is open.
	met.setReady(false)
	for _, s := range servers {
		s()
	}
	servers = nil
	waitFollowers(&wg, fl.follow)
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
	fmt.Fprintf(a.stderr, "ivc monitor: %d records (%s; %d evicted); %d events received = %d judged + %d ignored + %d malformed + %d late; %d spans without a protocol kind; %d requests refused saturated, %d undecodable\n",
		n.Judged(), strings.Join(vs, ", "), n.Evicted, n.Received, n.Events, n.Ignored, n.Malformed, n.Late, n.Unkinded, r.Rejected, r.Malformed)
	n.WritePatterns(a.stderr, 0)
	return out.Close()
}

// waitFollowers waits for the readers of --follow, which end at their
// file's end once the context is done, and standard input once it has
// handed over what it read; a source that writes faster than it is read
// is not waited for past a moment (what it gives later is counted late).
func waitFollowers(wg *sync.WaitGroup, follow []string) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

// recordOutput writes records as JSON lines, to a file reopened on SIGHUP
// (for log rotation) or to standard output.
type recordOutput struct {
	mu   sync.Mutex
	path string
	w    *bufio.Writer
	f    *os.File // nil for standard output
}

func openOutput(path string, stdout io.Writer) (*recordOutput, error) {
	o := &recordOutput{path: path}
	if path == "" {
		o.w = bufio.NewWriter(stdout)
		return o, nil
	}
	return o, o.reopen()
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
		o.w.Flush()
		o.f.Close()
	}
	o.f, o.w = f, bufio.NewWriter(f)
	return nil
}

// write writes one record and flushes: records come one per session, at
// the pace sessions end.
func (o *recordOutput) write(r check.Record) {
	line, _ := json.Marshal(r)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.w.Write(line)
	o.w.WriteByte('\n')
	o.w.Flush()
}

func (o *recordOutput) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	err := o.w.Flush()
	if o.f != nil {
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		o.f = nil
	}
	return err
}
