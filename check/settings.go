package check

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// Settings are the settings of a check as a driver receives them (flags,
// a job's configuration), unchecked. Options checks them once, layers them
// over the option files and returns the Options of New: every driver maps
// settings to options here, and maps a *SettingError to its own exit
// status without checking anything again.
//
// A setting that option files may also give (Mode, Budget, Strategy, POR,
// LOC, MaxNodes) is "not given" when empty or nil: the files' value, else
// the default, holds.
type Settings struct {
	Mode     string // the question: prefix (default), accept or slice
	Budget   string // slice mode's simulation budget: liberal (default) or paper
	Engine   string // auto (default), runtime or automata
	Strategy string // the runtime engine's search order: dfs (default) or bfs
	POR, LOC *bool  // partial order reduction, local analyses (default: on)
	MaxNodes *int   // vertex budget per multi-trace (0: DefaultMaxNodes)

	Timeout   time.Duration // per multi-trace, compilation included (0: none)
	MaxStates int           // the automata engine's NFA synthesis (0: Options.MaxStates' default)
	MaxMemory int64         // per analysis, in bytes (0: DefaultMaxMemory(Jobs))
	MaxInput  int64         // the largest input file, in bytes (0: input.DefaultLimit)
	// Jobs is how many checks run at once (Checker.Run's jobs), which share
	// the default memory budget: at least 1.
	Jobs int

	// OptionFiles are .hcf files whose @analyze_option sections are layered,
	// in order, over those of a legacy single-file .hsf and under the
	// settings given.
	OptionFiles []string
	// Explore says that the runtime engine's explored graph will be asked
	// (Checker.Explore): the runtime engine answers.
	Explore bool
	// TraceURL is the page of a span in a trace viewer, with the
	// placeholders {trace_id} and {span_id} (Options.TraceURL).
	TraceURL string

	// Repair says whether Fails are repaired (Options.RepairFails; default:
	// on), and RepairBudget bounds each repair (Options.Repair): a number
	// of nodes (e.g. 100000), a time (e.g. 2s), or both separated by a
	// comma; "" for the default.
	Repair       *bool
	RepairBudget string
}

// ErrorCode says what is wrong in a SettingError, as regexp/syntax's
// ErrorCode does for a regular expression.
type ErrorCode string

const (
	// ErrInvalidSetting: a value outside the setting's range.
	ErrInvalidSetting ErrorCode = "invalid setting"
	// ErrUnanswered: a mode the engine asked for does not answer.
	ErrUnanswered ErrorCode = "mode not answered by the engine"
	// ErrNotApplicable: a setting that does not apply to the spec (a .timbuk
	// NFA has no interaction: RawOptions) or to the other settings.
	ErrNotApplicable ErrorCode = "setting does not apply"
)

// SettingError is a bad setting, or settings that do not go together. A
// driver maps it to a usage error (ivc: exit status 2).
type SettingError struct {
	Code    ErrorCode
	Setting string // the setting at fault: mode, budget, engine, jobs, ...
	Value   string // its value as given (quoted for a name)
	// Detail says what the setting wants (ErrInvalidSetting) or why it does
	// not apply.
	Detail string
}

func (e *SettingError) Error() string {
	if e.Code == ErrInvalidSetting {
		return fmt.Sprintf("invalid %s %s: %s", e.Setting, e.Value, e.Detail)
	}
	return e.Detail
}

func invalid(setting, value, want string) *SettingError {
	return &SettingError{Code: ErrInvalidSetting, Setting: setting, Value: value, Detail: want}
}

// Options checks s, layers it over the defaults and the option files (a
// legacy .hsf's of sp, then s.OptionFiles) and returns the options of New
// for sp, with the warnings of the files. The errors are *SettingError,
// and those of reading and parsing an option file.
func (s *Settings) Options(sp *spec.Spec) (Options, []string, error) {
	opts := DefaultOptions()
	if err := s.parse(&opts); err != nil {
		return opts, nil, err
	}
	warnings, err := opts.layer(sp, s.OptionFiles, s.given)
	if err != nil {
		return opts, warnings, err
	}
	if s.Explore {
		if opts.Engine == EngineAutomata {
			return opts, warnings, &SettingError{Code: ErrNotApplicable, Setting: "engine", Value: `"automata"`,
				Detail: "the explored graph is the runtime engine's search: use the runtime engine"}
		}
		opts.Engine = EngineRuntime
	}
	return opts, warnings, opts.validate()
}

// parse checks the settings and sets what they give in opts.
func (s *Settings) parse(o *Options) error {
	var err error
	if s.Mode != "" {
		if o.Mode, err = verdict.ParseMode(s.Mode); err != nil {
			return invalid("mode", strconv.Quote(s.Mode), "want accept, prefix or slice")
		}
	}
	switch s.Budget {
	case "":
	case "liberal":
		o.Simulation = DefaultSimulation()
	case "paper":
		o.Simulation = PaperSimulation()
	default:
		return invalid("budget", strconv.Quote(s.Budget), "want liberal or paper")
	}
	if s.Engine != "" {
		if o.Engine, err = ParseEngine(s.Engine); err != nil {
			return invalid("engine", strconv.Quote(s.Engine), "want auto, runtime or automata")
		}
	}
	if s.Strategy != "" {
		if o.Strategy, err = rewrite.ParseStrategy(s.Strategy); err != nil {
			return invalid("strategy", strconv.Quote(s.Strategy), "want dfs or bfs")
		}
	}
	if s.POR != nil {
		o.POR = *s.POR
	}
	if s.LOC != nil {
		o.LOC = *s.LOC
	}
	if s.MaxNodes != nil {
		if *s.MaxNodes < 0 {
			return invalid("max-nodes", strconv.Itoa(*s.MaxNodes), "want a positive number, or 0 for the default")
		}
		o.MaxNodes = *s.MaxNodes
	}
	switch {
	case s.Timeout < 0:
		return invalid("timeout", s.Timeout.String(), "want a positive duration, or 0 for none")
	case s.Jobs < 1:
		return invalid("jobs", strconv.Itoa(s.Jobs), "want at least 1")
	case s.MaxInput < 0:
		return invalid("max-input", strconv.FormatInt(s.MaxInput, 10), "want a positive size, or 0 for the default")
	case s.MaxStates < 0:
		return invalid("max-states", strconv.Itoa(s.MaxStates), "want a positive number, or 0 for the default")
	case s.MaxMemory < 0:
		return invalid("max-memory", strconv.FormatInt(s.MaxMemory, 10), "want a positive size, or 0 for the default")
	}
	if err := checkTraceURL(s.TraceURL); err != nil {
		return err
	}
	o.TraceURL = s.TraceURL
	if s.Repair != nil {
		o.RepairFails = *s.Repair
	}
	if o.Repair, err = ParseRepairBudget(s.RepairBudget); err != nil {
		return invalid("repair-budget", strconv.Quote(s.RepairBudget), "want nodes (e.g. 100000), a time (e.g. 2s) or both (100000,2s)")
	}
	o.Timeout, o.MaxInput, o.MaxStates = s.Timeout, s.MaxInput, s.MaxStates
	o.MaxMemory = s.MaxMemory
	if o.MaxMemory == 0 {
		o.MaxMemory = DefaultMaxMemory(s.Jobs)
	}
	return nil
}

// checkTraceURL returns an error when template, a trace URL given, has no
// placeholder or one that is not {trace_id} or {span_id}.
func checkTraceURL(template string) error {
	if template == "" {
		return nil
	}
	rest, some := template, false
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			break
		}
		switch p := rest[i : i+j+1]; p {
		case "{trace_id}", "{span_id}":
			some = true
		default:
			return invalid("trace-url", strconv.Quote(template), fmt.Sprintf("unknown placeholder %s: want {trace_id} and {span_id}", p))
		}
		rest = rest[i+j+1:]
	}
	if !some {
		return invalid("trace-url", strconv.Quote(template), "want a URL with {trace_id} or {span_id}, as http://localhost:16686/trace/{trace_id}?uiFind={span_id}")
	}
	return nil
}

// given reports whether a setting that option files may give was given.
func (s *Settings) given(setting string) bool {
	switch setting {
	case settingMode:
		return s.Mode != ""
	case settingBudget:
		return s.Budget != ""
	case settingStrategy:
		return s.Strategy != ""
	case settingPOR:
		return s.POR != nil
	case settingLOC:
		return s.LOC != nil
	case settingMaxNodes:
		return s.MaxNodes != nil
	}
	return false
}

// validate checks the options that do not go together: the one place of
// these rules (New asks it too, for options built by hand; validateRaw has
// a raw NFA's).
func (o *Options) validate() error {
	mode := o.Mode
	if o.Engine == EngineAutomata {
		if err := automata.Answers(mode); err != nil {
			return &SettingError{Code: ErrUnanswered, Setting: "mode", Value: strconv.Quote(mode.String()), Detail: err.Error()}
		}
	}
	return nil
}

// ReadMemory is the memory budget of reading logs under these settings
// (logs.Options.MaxMemory, from which the limits on a line, a session and
// the spans held to pair them follow): MaxMemory, else the default budget
// of one analysis. Both drivers, ivc analyze and ivc-beam, read with it.
func (s Settings) ReadMemory() int64 {
	if s.MaxMemory > 0 {
		return s.MaxMemory
	}
	return DefaultMaxMemory(1)
}
