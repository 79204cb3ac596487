// Package hcf reads and writes HIBOU's process configuration files (.hcf):
// the option sections @analyze_option{...}, @explore_option{...} and
// @canonize_option{...}, also found at the top of legacy single-file .hsf
// specifications (HIBOU ≤ 0.7).
//
// Parse turns a file into typed Options, one value per section, and records
// which options the file gives, so that a caller can layer them: command-line
// flags over file values over its own defaults.
//
//	f, err := hcf.Parse("conf.hcf", src) // errors name conf.hcf:line:col
//	if sec := f.Section(hcf.Analyze); sec != nil && sec.Options.Has(hcf.KeyStrategy) {
//		strategy = sec.Options.Strategy // hcf.DFS for "strategy = DFS" or "DepthFS"
//	}
//
// The spellings of every HIBOU version are accepted and mapped onto the same
// typed fields: "hide" is eliminate, "semantics" is analysis_kind,
// "use_locfront" and "local_analysis = true|false" are local_analysis,
// "por" is partial_order_reduction, "pre_filters" is filters,
// "frontier_priorities" and "priorities = random" are priorities, and so on.
// Format prints a File back in today's spelling, one declaration per line:
//
//	@analyze_option{
//		strategy = DFS;
//		goal = WeakPass;
//		analysis_kind = eliminate;
//		local_analysis = [select=dirty, max_look_ahead_depth=none, modulo=1];
//		partial_order_reduction = true;
//		memoize = true;
//	}
//
// An unknown option or value, an option given twice, or an option outside
// its section (analysis_kind in @explore_option) is an error.
//
// A file with no section at all (empty, or only comments) is a valid .hcf
// that sets nothing: every option keeps its default, as when no .hcf is
// given. (An empty .htf, on the contrary, is an error: see the multitrace
// package.)
package hcf
