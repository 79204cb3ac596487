package pipeline

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// outputName matches, after PREFIX, the names of the files a run writes:
// -sessions-SSSSS-of-NNNNN.jsonl, -errors-SSSSS-of-NNNNN.txt and
// -summary.json.
var outputName = regexp.MustCompile(`^-(?:(?:sessions-\d{5}-of-\d{5}\.jsonl)|(?:errors-\d{5}-of-\d{5}\.txt)|(?:summary\.json))$`)

// Outputs lists the files a run with the prefix would write that exist
// already, on any Beam filesystem: a previous run's shards, error files and
// summary, which a new run with other shards would leave beside its own.
// Only names of those patterns are listed, whatever glob characters the
// prefix holds.
func Outputs(ctx context.Context, prefix string) ([]string, error) {
	fs, err := filesystem.New(ctx, prefix)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	files, err := fs.List(ctx, prefix+"-*")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		// The glob may match more (glob characters in the prefix):
		// keep only PREFIX followed by a name of the run's patterns.
		if rest, ok := strings.CutPrefix(f, prefix); ok && outputName.MatchString(rest) {
			out = append(out, f)
		}
	}
	return out, nil
}

// RemoveOutputs removes the files Outputs lists.
func RemoveOutputs(ctx context.Context, files []string) error {
	for _, f := range files {
		fs, err := filesystem.New(ctx, f)
		if err != nil {
			return err
		}
		rm, ok := fs.(filesystem.Remover)
		if !ok {
			fs.Close()
			return fmt.Errorf("%s: its filesystem cannot remove files: remove the previous run's outputs by hand", f)
		}
		err = rm.Remove(ctx, f)
		fs.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
