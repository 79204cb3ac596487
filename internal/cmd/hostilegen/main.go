// Command hostilegen writes the hostile logs of package hostile into a
// directory: go run ./internal/cmd/hostilegen [-small] DIR.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ivc-project/ivc/internal/hostile"
)

func main() {
	small := flag.Bool("small", false, "a tenth of the issue's sizes")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: hostilegen [-small] DIR")
		os.Exit(2)
	}
	s := hostile.Full
	if *small {
		s = hostile.Small
	}
	if err := hostile.Write(flag.Arg(0), s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
