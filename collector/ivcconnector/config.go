package ivcconnector

import (
	"errors"
	"fmt"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/spec"
)

// Config is the connector's configuration: the settings of ivc monitor,
// named as its flags are (--session-idle: session_idle), and how the
// records are batched.
type Config struct {
	// Spec is the specification: a .hsf (with the .hif beside it, or HIF),
	// a legacy single-file .hsf, or a Mermaid sequence diagram (.mmd).
	Spec string `mapstructure:"spec"`
	HIF  string `mapstructure:"hif"`
	// SelfMessages reads a diagram's self-messages as messages (ivc
	// --self-messages).
	SelfMessages bool `mapstructure:"self_messages"`
	// Options layers the @analyze_option section of an .hcf file under
	// the settings below.
	Options string `mapstructure:"options"`
	// Mode is the question asked: prefix (default), accept or slice;
	// Engine auto (default), runtime or automata; Timeout the time budget
	// of one session (0: none).
	Mode    string        `mapstructure:"mode"`
	Engine  string        `mapstructure:"engine"`
	Timeout time.Duration `mapstructure:"timeout"`

	// The naming of spans and events (see docs/logs.md): the attributes
	// naming a span's lifeline (default service.name) and message (default
	// messaging.destination.name, then rpc.method, then the span name),
	// the locations ("a,b;c", default one per lifeline), and Strict: a span
	// outside the signature is an error rather than ignored.
	LifelineAttr string `mapstructure:"lifeline_attr"`
	MessageAttr  string `mapstructure:"message_attr"`
	Locations    string `mapstructure:"locations"`
	Strict       bool   `mapstructure:"strict"`

	// The session table's bounds (monitor.Options): a session closes after
	// SessionIdle without a span, SessionMax after its first; a span within
	// SessionGrace of its session's close re-opens it for a revision; past
	// MaxSessions open sessions or MaxSessionMemory bytes held, the oldest
	// is judged early (evicted). Zero takes ivc monitor's default.
	SessionIdle      time.Duration `mapstructure:"session_idle"`
	SessionMax       time.Duration `mapstructure:"session_max"`
	SessionGrace     time.Duration `mapstructure:"session_grace"`
	MaxSessions      int           `mapstructure:"max_sessions"`
	MaxSessionMemory int64         `mapstructure:"max_session_memory"`

	// MetricsInterval is how often the metrics are emitted (default 10 s),
	// and once more at shutdown.
	MetricsInterval time.Duration `mapstructure:"metrics_interval"`

	// MaxRecordsPerBatch is how many log records one plog.Logs sent to the
	// logs pipeline holds at most: a burst of verdicts (many sessions
	// closed at once, or all of them at shutdown) goes as several, each
	// within a downstream exporter's message limit (OTLP/gRPC's 4 MiB)
	// whether or not the pipeline splits batches.
	MaxRecordsPerBatch int `mapstructure:"max_records_per_batch"`
}

// The defaults of Config.MetricsInterval and Config.MaxRecordsPerBatch.
const (
	DefaultMetricsInterval    = 10 * time.Second
	DefaultMaxRecordsPerBatch = 1024
)

func createDefaultConfig() *Config {
	return &Config{
		SessionIdle:        monitor.DefaultIdle,
		SessionMax:         monitor.DefaultMax,
		SessionGrace:       monitor.DefaultGrace,
		MaxSessions:        monitor.DefaultMaxSessions,
		MetricsInterval:    DefaultMetricsInterval,
		MaxRecordsPerBatch: DefaultMaxRecordsPerBatch,
	}
}

// Validate checks the configuration as the connector will use it: it
// loads the spec and maps the settings, so that a bad one fails the
// Collector's configuration check, its error naming the field.
func (c *Config) Validate() error {
	_, err := c.load()
	return err
}

// setup is what a configuration gives the session table.
type setup struct {
	sp       *spec.Spec
	opts     check.Options
	lopt     logs.Options
	mopt     monitor.Options
	warnings []string
}

// load checks c and gives what the table is built from; its errors name
// the field at fault.
func (c *Config) load() (*setup, error) {
	for _, d := range []struct {
		field string
		v     time.Duration
	}{{"timeout", c.Timeout}, {"session_idle", c.SessionIdle}, {"session_max", c.SessionMax},
		{"session_grace", c.SessionGrace}, {"metrics_interval", c.MetricsInterval}} {
		if d.v < 0 {
			return nil, fmt.Errorf("%s: %v is negative", d.field, d.v)
		}
	}
	switch {
	case c.Spec == "":
		return nil, errors.New("spec: missing: the specification to check the traces against (.hsf or .mmd)")
	case c.MaxSessions < 0:
		return nil, fmt.Errorf("max_sessions: %d is negative", c.MaxSessions)
	case c.MaxSessionMemory < 0:
		return nil, fmt.Errorf("max_session_memory: %d is negative", c.MaxSessionMemory)
	case c.MaxRecordsPerBatch <= 0:
		return nil, fmt.Errorf("max_records_per_batch: %d is not positive", c.MaxRecordsPerBatch)
	}
	sp, err := spec.Options{SelfMessages: c.SelfMessages}.Load(c.Spec, c.HIF)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	set := check.Settings{Mode: c.Mode, Engine: c.Engine, Timeout: c.Timeout, Jobs: 1}
	if c.Options != "" {
		set.OptionFiles = []string{c.Options}
	}
	opts, warnings, err := set.Options(sp)
	if err != nil {
		var se *check.SettingError
		if errors.As(err, &se) && se.Setting != "" {
			return nil, fmt.Errorf("%s: %w", se.Setting, err)
		}
		return nil, fmt.Errorf("options: %w", err)
	}
	lopt := logs.Options{Sig: sp.Sig, LifelineAttr: c.LifelineAttr, MessageAttr: c.MessageAttr, Strict: c.Strict,
		MaxMemory: set.ReadMemory()}
	if c.Locations != "" {
		if lopt.Locations, err = interaction.ParseLocations(sp.Sig, c.Locations); err != nil {
			return nil, fmt.Errorf("locations: %w", err)
		}
	}
	for _, w := range sp.Warnings {
		warnings = append(warnings, w.Error())
	}
	return &setup{sp: sp, opts: opts, lopt: lopt, warnings: warnings, mopt: monitor.Options{
		Idle: c.SessionIdle, Max: c.SessionMax, Grace: c.SessionGrace,
		MaxSessions: c.MaxSessions, MaxMemory: c.MaxSessionMemory,
	}}, nil
}
