package receiver_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/receiver"
)

// BenchmarkFollow reads a followed file of 16 MiB to its end (its context
// done), in the chunks the readers of package logs ask for.
func BenchmarkFollow(b *testing.B) {
	path := filepath.Join(b.TempDir(), "app.jsonl")
	data := bytes.Repeat([]byte(`{"session":"a","action":"S?d"}`+"\n"), 16<<20/31)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	buf := make([]byte, 64<<10)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := receiver.Follow(ctx, path, receiver.FollowOptions{Poll: 100 * time.Millisecond})
		for {
			if _, err := r.Read(buf); err == io.EOF {
				break
			}
		}
		r.Close()
	}
}
