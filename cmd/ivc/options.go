package main

import (
	"fmt"

	"github.com/ivc-project/ivc/check"
	"github.com/spf13/cobra"
)

// settings turns the flags of ivc analyze (and draw) into the checker's
// settings: a setting that option files may give is passed only when its
// flag is given, so that the flag wins over the files and the files over
// the defaults. check.Settings.Options checks them.
func settings(cmd *cobra.Command, fl *analyzeFlags) check.Settings {
	given := cmd.Flags().Changed
	s := check.Settings{Engine: fl.engine, Timeout: fl.timeout, MaxStates: fl.maxStates,
		MaxMemory: int64(fl.maxMemory), MaxInput: int64(fl.maxInput), Jobs: fl.jobs,
		Explore: fl.graph != "", TraceURL: fl.traceURL, RepairBudget: fl.repairBudget}
	if fl.options != "" {
		s.OptionFiles = []string{fl.options}
	}
	if given("mode") {
		s.Mode = fl.mode
	}
	if given("budget") {
		s.Budget = fl.budget
	}
	if given("strategy") {
		s.Strategy = fl.strategy
	}
	if given("por") {
		s.POR = &fl.por
	}
	if given("local-analyses") || given("loc") { // --loc: the old name
		s.LOC = &fl.loc
	}
	if given("repair") {
		s.Repair = &fl.repair
	}
	if given("max-nodes") {
		s.MaxNodes = &fl.maxNodes
	}
	return s
}

// traceURLHelp is the help of --trace-url, for ivc analyze and ivc monitor.
const traceURLHelp = "link the spans where a Fail stopped to a trace viewer: a `TEMPLATE` with {trace_id} and {span_id}, e.g. http://localhost:16686/trace/{trace_id}?uiFind={span_id} (Jaeger)"

// settingError words a bad setting as a usage error of ivc, whose flags are
// named as the settings are.
func settingError(e *check.SettingError) error {
	if e.Code == check.ErrInvalidSetting {
		return &usageError{fmt.Errorf("invalid --%s %s: %s", e.Setting, e.Value, e.Detail)}
	}
	return &usageError{e}
}
