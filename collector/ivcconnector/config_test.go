package ivcconnector

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/confmaptest"
)

const abp = "../../testdata/abp/abp.hsf"

// TestLoadConfig reads testdata/config.yaml as the Collector does: the
// defaults under what the file gives, every field by its name.
func TestLoadConfig(t *testing.T) {
	if err := componenttest.CheckConfigStruct(createDefaultConfig()); err != nil {
		t.Fatal(err)
	}
	cm, err := confmaptest.LoadConf(filepath.Join("testdata", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	def := createDefaultConfig()
	def.Spec = abp
	all := &Config{Spec: "../../monitor/e2e/testdata/shop.hsf", HIF: "../../monitor/e2e/testdata/shop.hif",
		Mode: "accept", Engine: "runtime", Timeout: 5 * time.Second, LifelineAttr: "peer.service", MessageAttr: "rpc.method",
		Locations: "client;shop,db", Strict: true, SessionIdle: 500 * time.Millisecond, SessionMax: time.Minute,
		SessionGrace: 10 * time.Second, MaxSessions: 1000, MaxSessionMemory: 64 << 20, MetricsInterval: 30 * time.Second,
		MaxRecordsPerBatch: 256}
	for _, tc := range []struct {
		id   component.ID
		want *Config
	}{
		{component.NewID(componentType), def},
		{component.NewIDWithName(componentType, "all"), all},
	} {
		t.Run(tc.id.String(), func(t *testing.T) {
			sub, err := cm.Sub(tc.id.String())
			if err != nil {
				t.Fatal(err)
			}
			cfg := NewFactory().CreateDefaultConfig()
			if err := sub.Unmarshal(cfg); err != nil {
				t.Fatal(err)
			}
			if err := confmap.Validate(cfg); err != nil {
				t.Fatal(err)
			}
			if got := *cfg.(*Config); got != *tc.want {
				t.Errorf("got %+v\nwant %+v", got, *tc.want)
			}
		})
	}
}

// TestValidate: a bad configuration fails validation, its message naming
// the field at fault.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string // the error's start
	}{
		{"no spec", func(c *Config) { c.Spec = "" }, "spec: missing"},
		{"spec missing", func(c *Config) { c.Spec = "testdata/none.hsf" }, "spec: "},
		{"mode", func(c *Config) { c.Mode = "exact" }, `mode: invalid mode "exact"`},
		{"engine", func(c *Config) { c.Engine = "fast" }, `engine: invalid engine "fast"`},
		{"timeout", func(c *Config) { c.Timeout = -time.Second }, "timeout: -1s is negative"},
		{"session_idle", func(c *Config) { c.SessionIdle = -time.Second }, "session_idle: "},
		{"session_max", func(c *Config) { c.SessionMax = -time.Second }, "session_max: "},
		{"session_grace", func(c *Config) { c.SessionGrace = -time.Second }, "session_grace: "},
		{"max_sessions", func(c *Config) { c.MaxSessions = -1 }, "max_sessions: "},
		{"max_session_memory", func(c *Config) { c.MaxSessionMemory = -1 }, "max_session_memory: "},
		{"metrics_interval", func(c *Config) { c.MetricsInterval = -1 }, "metrics_interval: "},
		{"max_records_per_batch", func(c *Config) { c.MaxRecordsPerBatch = 0 }, "max_records_per_batch: 0 is not positive"},
		{"max_records_per_batch negative", func(c *Config) { c.MaxRecordsPerBatch = -1 }, "max_records_per_batch: "},
		{"locations", func(c *Config) { c.Locations = "S;Z" }, "locations: "},
		{"options", func(c *Config) { c.Options = "testdata/none.hcf" }, "options: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := createDefaultConfig()
			cfg.Spec = abp
			tc.edit(cfg)
			err := confmap.Validate(cfg)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want an error starting %q", err, tc.want)
			}
		})
	}
	cfg := createDefaultConfig()
	cfg.Spec = abp
	if err := confmap.Validate(cfg); err != nil {
		t.Errorf("the default configuration with a spec: %v", err)
	}
}
