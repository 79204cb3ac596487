package ivcconnector

import (
	"context"
	"sync"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/connector"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// The component's type and stability, as metadata.yaml says.
var componentType = component.MustNewType("ivc")

const stability = component.StabilityLevelAlpha

// NewFactory returns the factory of the ivc connector: traces in, the
// verdicts out as logs (traces_to_logs) and the session table's counts as
// metrics (traces_to_metrics).
func NewFactory() connector.Factory {
	return connector.NewFactory(componentType, func() component.Config { return createDefaultConfig() },
		connector.WithTracesToLogs(createTracesToLogs, stability),
		connector.WithTracesToMetrics(createTracesToMetrics, stability))
}

// A connector in a traces pipeline whose outputs go to a logs pipeline and
// a metrics pipeline is created twice by the Collector (once per pair of
// pipeline types), from the same configuration and both fed the same
// spans: the two share one session table, found here by their
// configuration, so that each session is judged once.
var (
	sharedMu sync.Mutex
	shared   = map[*Config]*ivcConnector{}
)

// instance returns the connector of cfg, made if it has none.
func instance(set connector.Settings, cfg *Config) (*ivcConnector, error) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if c, ok := shared[cfg]; ok {
		return c, nil
	}
	c, err := newConnector(set, cfg)
	if err != nil {
		return nil, err
	}
	c.forget = func() {
		sharedMu.Lock()
		defer sharedMu.Unlock()
		if shared[cfg] == c {
			delete(shared, cfg)
		}
	}
	shared[cfg] = c
	return c, nil
}

func createTracesToLogs(_ context.Context, set connector.Settings, cfg component.Config, next consumer.Logs) (connector.Traces, error) {
	c, err := instance(set, cfg.(*Config))
	if err != nil {
		return nil, err
	}
	c.nextLogs = next
	return &role{c: c, consumes: true}, nil
}

func createTracesToMetrics(_ context.Context, set connector.Settings, cfg component.Config, next consumer.Metrics) (connector.Traces, error) {
	c, err := instance(set, cfg.(*Config))
	if err != nil {
		return nil, err
	}
	c.nextMetrics = next
	return &role{c: c}, nil
}

// role is one of the Collector's instances of the shared connector. The
// spans that reach both are read once, by the logs role when there is one.
type role struct {
	c        *ivcConnector
	consumes bool // the logs role
}

func (r *role) Capabilities() consumer.Capabilities { return consumer.Capabilities{MutatesData: false} }

func (r *role) ConsumeTraces(ctx context.Context, td ptrace.Traces) error {
	if !r.consumes && r.c.nextLogs != nil {
		return nil // the logs role reads them
	}
	return r.c.consumeTraces(ctx, td)
}

func (r *role) Start(ctx context.Context, host component.Host) error { return r.c.start(ctx, host) }

func (r *role) Shutdown(ctx context.Context) error { return r.c.shutdown(ctx) }
