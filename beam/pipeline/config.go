package pipeline

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	goruntime "runtime"
	"sync"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// Config is the whole of a run: what to read, how to judge it and where to
// write. It travels with the pipeline to every worker (the DoFns' fields,
// serialized with the job), the spec's text included, so that no worker
// needs a copy of any file but the logs.
type Config struct {
	// Inputs are the logs: file names or globs of any Beam filesystem
	// (local, gs://, s3://).
	Inputs []string
	// Format is the format of every input: auto (by name and first bytes,
	// per file), htf, jsonl, csv, otlp or jaeger.
	Format string
	// Output is the prefix of the files written: PREFIX-sessions-*.jsonl,
	// PREFIX-errors-*.txt and PREFIX-summary.json.
	Output string
	// Shards is the number of files the records and the errors are each
	// written to (0: 1).
	Shards int
	// Buckets is the number of groups the sessions are spread over by a
	// hash of their key (0: DefaultBuckets): the unit of work of the
	// judging workers, whose events one worker holds at once.
	Buckets int
	// MaxSessionEvents is the most events a session may have to be judged
	// (0: DefaultMaxSessionEvents); a larger one is reported, not judged.
	MaxSessionEvents int
	// MaxLine is the longest line, JSON value or CSV record read (0: as
	// ivc analyze reads, logs.MaxLine or a 64th of the reading budget).
	MaxLine int

	// Source is the text of the files of the interaction.
	Source spec.Source

	// Settings are those of the check, as ivc analyze's flags give them (a
	// setting left empty lets a legacy .hsf's option sections give it);
	// Jobs is the checks a worker runs at once (0: its cores).
	Settings check.Settings

	Locations string // "a,b;c": the lifelines that share a clock
	// Fields renames the fields of an event log: role → name.
	Fields                    map[string]string
	LifelineAttr, MessageAttr string
	Strict                    bool
	// SessionScope is what a session is: "run" (or ""), its id across
	// every input, as ivc analyze joins them; "file", its id within its file.
	SessionScope string
}

// scope returns the session scope (SessionScope checked by validate).
func (c Config) scope() session.Scope {
	s, _ := session.ParseScope(cmp.Or(c.SessionScope, "run"))
	return s
}

// DefaultBuckets is the number of buckets when Config.Buckets is 0:
// enough for a few hundred workers, few enough that a runner moves large
// elements; with a billion events, a bucket holds about a million.
const DefaultBuckets = 1024

// DefaultMaxSessionEvents bounds the events of a session when
// Config.MaxSessionEvents is 0: a session of that many events takes roughly
// 120 bytes an event on the worker that judges it, before the check.
const DefaultMaxSessionEvents = 4 << 20

// ReadSource reads the signature hsf and the interaction hif (empty: the
// .hif beside hsf, or the interaction of a legacy single-file .hsf), once,
// and checks that they load, with errors naming file:line:col.
func ReadSource(hsf, hif string) (spec.Source, error) {
	_, src, err := spec.LoadSource(hsf, hif)
	return src, err
}

// judge is what a worker needs to judge sessions, built once per process
// for a Config (Config.judge).
type judge struct {
	checker   *check.Checker
	assembler *session.Assembler
	format    logs.Format
	opt       logs.Options
	warnings  []string
}

// judges are the judges built in this process, by the digest of their
// Config: all the DoFns of a worker share one.
var judges sync.Map // [sha256.Size]byte → *judgeOnce

type judgeOnce struct {
	once sync.Once
	j    *judge
	err  error
}

// judge returns the judge of c, building it on the first call in this
// process.
func (c *Config) judge() (*judge, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	v, _ := judges.LoadOrStore(sha256.Sum256(b), &judgeOnce{})
	jo := v.(*judgeOnce)
	jo.once.Do(func() { jo.j, jo.err = c.newJudge() })
	return jo.j, jo.err
}

// newJudge builds the checker and the readers' options of c, as ivc
// analyze does from the same settings.
func (c *Config) newJudge() (*judge, error) {
	f, err := logs.ParseFormat(c.formatName())
	if err != nil {
		return nil, err
	}
	if _, err := session.ParseScope(cmp.Or(c.SessionScope, "run")); err != nil {
		return nil, err
	}
	sp, err := c.Source.Parse() // from its text, with errors naming the original files: no file is read or written
	if err != nil {
		return nil, err
	}
	set := c.Settings
	if set.Jobs == 0 {
		set.Jobs = goruntime.NumCPU()
	}
	opts, warnings, err := set.Options(sp)
	if err != nil {
		return nil, err
	}
	ch, err := check.New(sp, opts)
	if err != nil {
		return nil, err
	}
	opt := logs.Options{Sig: sp.Sig, Fields: c.Fields, LifelineAttr: c.LifelineAttr,
		MessageAttr: c.MessageAttr, Strict: c.Strict, MaxBytes: c.Settings.MaxInput, MaxMemory: c.Settings.ReadMemory(),
		MaxLine: c.MaxLine, Replies: sp.Replies}
	if c.Locations != "" {
		if opt.Locations, err = interaction.ParseLocations(opt.Sig, c.Locations); err != nil {
			return nil, fmt.Errorf("locations: %w", err)
		}
	}
	a, err := session.NewAssembler(opt)
	if err != nil {
		return nil, err
	}
	for _, w := range sp.Warnings {
		warnings = append(warnings, w.Error())
	}
	return &judge{checker: ch, assembler: a, format: f, opt: opt, warnings: warnings}, nil
}

func (c *Config) formatName() string {
	if c.Format == "" {
		return "auto"
	}
	return c.Format
}

// Check checks the settings of c, building what a worker builds: an error
// here (a spec that does not load or compile, a bad setting) would be one
// on every worker. It returns the warnings of the spec and its options.
func (c *Config) Check() ([]string, error) {
	if len(c.Inputs) == 0 {
		return nil, errors.New("no input: give --input GLOB")
	}
	if c.Output == "" {
		return nil, errors.New("no output: give --output PREFIX")
	}
	if c.Shards < 0 || c.Buckets < 0 || c.MaxSessionEvents < 0 {
		return nil, fmt.Errorf("invalid shards %d, buckets %d or max session events %d (want 0 or more)", c.Shards, c.Buckets, c.MaxSessionEvents)
	}
	if c.MaxLine < 0 {
		return nil, fmt.Errorf("invalid max line %d (want 0 or more)", c.MaxLine)
	}
	j, err := c.newJudge()
	if err != nil {
		return nil, err
	}
	return j.warnings, nil
}

func (c *Config) shards() int { return max(c.Shards, 1) }

func (c *Config) buckets() int {
	if c.Buckets > 0 {
		return c.Buckets
	}
	return DefaultBuckets
}

func (c *Config) maxSessionEvents() int {
	if c.MaxSessionEvents > 0 {
		return c.MaxSessionEvents
	}
	return DefaultMaxSessionEvents
}
