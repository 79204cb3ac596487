// Command hostilegen writes the hostile logs of package hostile into a
// directory: go run ./internal/cmd/hostilegen [-small] DIR; with -seq N,
// the seq of N lifelines and a log of -sessions one-event sessions
// instead (hostile.WriteSeq).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ivc-project/ivc/internal/hostile"
)

func main() {
	small := flag.Bool("small", false, "a tenth of the issue's sizes")
	seq := flag.Int("seq", 0, "write a seq of this many lifelines and a log of one-event sessions instead")
	sessions := flag.Int("sessions", 200, "with -seq: the one-event sessions of the log")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: hostilegen [-small] DIR, or hostilegen -seq N [-sessions K] DIR")
		os.Exit(2)
	}
	if *seq > 0 {
		if err := hostile.WriteSeq(flag.Arg(0), *seq, *sessions); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
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
