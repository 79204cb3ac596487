package ivcconnector

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/connector"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.uber.org/zap"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/monitor"
)

// source names the connector's spans in the records (their "file").
const source = "otlp"

// ivcConnector is the connector: the session table of ivc monitor fed the
// spans of a traces pipeline, its outcomes turned into log records, its
// counts into metrics.
type ivcConnector struct {
	logger      *zap.Logger
	cfg         *Config
	table       *monitor.Table
	nextLogs    consumer.Logs    // nil: no logs pipeline
	nextMetrics consumer.Metrics // nil: no metrics pipeline
	forget      func()           // drops it from the shared instances

	mu      sync.Mutex // guards pending and met
	pending batch      // the records of the sessions judged, not yet sent
	met     metrics
	// sendMu keeps the records in the order they were judged: a sender
	// takes the pending records and sends them before the next may.
	sendMu sync.Mutex

	life    sync.Mutex
	started int // roles started
	stopped bool
	cancel  context.CancelFunc
	done    chan struct{}
}

func newConnector(set connector.Settings, cfg *Config) (*ivcConnector, error) {
	s, err := cfg.load()
	if err != nil {
		return nil, err
	}
	for _, w := range s.warnings {
		set.Logger.Warn(w)
	}
	ch, err := check.New(s.sp, s.opts)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	c := &ivcConnector{logger: set.Logger, cfg: cfg}
	c.met.init(time.Now())
	c.pending.max = cfg.MaxRecordsPerBatch
	c.pending.reset()
	s.mopt.Report = func(err error) { c.logger.Warn("ivc", zap.Error(err)) }
	c.table, err = monitor.NewTable(ch, s.lopt, s.mopt, c.emit)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// emit receives each outcome of the table, its lock held: it makes its
// record, to send, and counts it.
func (c *ivcConnector) emit(o check.Outcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nextLogs != nil {
		c.pending.add(&o)
	}
	c.met.observe(&o)
}

// consumeTraces hands td to the table, then sends the records its spans
// caused (sessions evicted or failed early).
func (c *ivcConnector) consumeTraces(ctx context.Context, td ptrace.Traces) error {
	if _, err := c.table.ConsumeTraces(source, td); err != nil {
		return err
	}
	return c.send(ctx)
}

// send sends the records judged so far to the logs pipeline, in the order
// judged, max_records_per_batch at most in a plog.Logs. A plog.Logs refused
// does not keep the others from being sent, unless ctx is done.
func (c *ivcConnector) send(ctx context.Context) error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.mu.Lock()
	lds := c.pending.take()
	c.mu.Unlock()
	var errs []error
	for _, ld := range lds {
		if err := c.nextLogs.ConsumeLogs(ctx, ld); err != nil {
			errs = append(errs, err)
			if ctx.Err() != nil {
				break
			}
		}
	}
	return errors.Join(errs...)
}

// sendMetrics sends the metrics so far to the metrics pipeline.
func (c *ivcConnector) sendMetrics(ctx context.Context, now time.Time) error {
	if c.nextMetrics == nil {
		return nil
	}
	counts := c.table.Counts()
	c.mu.Lock()
	md := c.met.metrics(&counts, now)
	c.mu.Unlock()
	return c.nextMetrics.ConsumeMetrics(ctx, md)
}

// start starts the table's clock at the first role's Start: it closes the
// sessions idle or overdue every quarter of session_idle and sends their
// records, and sends the metrics every metrics_interval.
func (c *ivcConnector) start(context.Context, component.Host) error {
	c.life.Lock()
	defer c.life.Unlock()
	c.started++
	if c.started > 1 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel, c.done = cancel, make(chan struct{})
	go c.run(ctx)
	return nil
}

func (c *ivcConnector) run(ctx context.Context) {
	defer close(c.done)
	tick := time.NewTicker(max(c.cfg.SessionIdle, time.Millisecond) / 4)
	defer tick.Stop()
	interval := c.cfg.MetricsInterval
	if interval <= 0 {
		interval = DefaultMetricsInterval
	}
	mtick := time.NewTicker(interval)
	defer mtick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			c.table.Tick(now)
			if err := c.send(ctx); err != nil {
				c.logger.Warn("ivc: sending verdicts", zap.Error(err))
			}
		case now := <-mtick.C:
			if err := c.sendMetrics(ctx, now); err != nil {
				c.logger.Warn("ivc: sending metrics", zap.Error(err))
			}
		}
	}
}

// shutdown, at the first role's Shutdown (the traces pipelines before it
// are stopped, the pipelines after either role still run), judges every
// open session and sends the records and the last metrics, within ctx's
// deadline. The other role's Shutdown does nothing.
func (c *ivcConnector) shutdown(ctx context.Context) error {
	c.life.Lock()
	defer c.life.Unlock()
	if c.stopped {
		return nil
	}
	c.stopped = true
	defer c.forget()
	if c.cancel != nil {
		c.cancel()
		<-c.done
	}
	done := make(chan error, 1)
	go func() {
		c.table.Close()
		err := c.send(ctx)
		if merr := c.sendMetrics(ctx, time.Now()); err == nil {
			err = merr
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("ivc: shutdown: %w", ctx.Err())
	}
}
