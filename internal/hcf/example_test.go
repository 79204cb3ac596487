package hcf_test

import (
	"fmt"
	"log"

	"github.com/ivc-project/ivc/internal/hcf"
)

func Example() {
	src := []byte(`@analyze_option{
    strategy = DepthFS;            /* HIBOU 0.7 spelling */
    analysis_kind = hide;          /* HIBOU 0.8.2 spelling */
    local_analysis = [select=dirty, lookahead=2];
    por = true
}`)
	f, err := hcf.Parse("conf.hcf", src)
	if err != nil {
		log.Fatal(err)
	}
	o := f.Section(hcf.Analyze).Options
	fmt.Println(o.Strategy, o.Analysis.Kind, o.PartialOrderReduction, o.Has(hcf.KeyGoal))
	fmt.Printf("%s", hcf.Format(f))

	_, err = hcf.Parse("conf.hcf", []byte("@explore_option{ goal = Pass }"))
	fmt.Println(err)
	// Output:
	// DFS eliminate true false
	// @analyze_option{
	// 	strategy = DFS; /* HIBOU 0.7 spelling */
	// 	analysis_kind = eliminate; /* HIBOU 0.8.2 spelling */
	// 	local_analysis = [select=dirty, max_look_ahead_depth=2, modulo=1];
	// 	partial_order_reduction = true;
	// }
	// conf.hcf:1:18: option goal belongs in @analyze_option, not in @explore_option (expected loggers, strategy, memoize, filters or priorities)
}
