package logs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Compressed inputs are read decompressed, told by their magic number
// whatever their name: gzip (the standard library's decoder) and zstd (the
// OpenTelemetry Collector's file exporter writes it with compression: zstd;
// klauspost/compress is the decoder the Collector itself uses, the only
// maintained Go one). What the readers see is the decompressed content, so
// that every limit (Options.MaxBytes, MaxLine, the value limit) applies to
// it as to a plain file.

// Magic numbers of the compressed forms.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// compressedExts are the suffixes of compressed files, looked through to
// the name of what they hold (x.jsonl.gz is a .jsonl file).
var compressedExts = []string{".gz", ".zst"}

// trimCompressed returns the lower-case base name of path without its
// compression suffix.
func trimCompressed(path string) string {
	base := strings.ToLower(filepath.Base(path))
	for _, ext := range compressedExts {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// The zstd window: what a zstd decoder holds of the text behind it, as
// large as the frame asks (the format allows gigabytes). Its size follows
// the reading's memory budget (Options.MaxMemory/HeldShare), between what
// zstd's default levels write (8 MiB at most) and what --long and
// --ultra write (128 MiB); a frame that asks for more is refused.
const (
	minZstdWindow = 8 << 20
	maxZstdWindow = 128 << 20
)

func zstdWindow(opt *Options) uint64 {
	if opt.MaxMemory <= 0 {
		return maxZstdWindow
	}
	return uint64(min(max(opt.MaxMemory/HeldShare, minZstdWindow), maxZstdWindow))
}

// decompress returns what br holds, decompressed when its first bytes are
// a gzip or a zstd magic number.
func decompress(br peeker, opt *Options) (io.Reader, error) {
	raw, err := br.Peek(len(zstdMagic))
	if err != nil && err != io.EOF {
		return nil, err
	}
	switch {
	case bytes.HasPrefix(raw, gzipMagic):
		return gzip.NewReader(br)
	case bytes.HasPrefix(raw, zstdMagic):
		zr, err := newZstdReader(br, zstdWindow(opt), 0)
		if err != nil {
			return nil, err
		}
		return zstdErrors{zr}, nil
	}
	return br, nil
}

// peeker is a reader whose next bytes can be seen without reading them: a
// *bufio.Reader.
type peeker interface {
	io.Reader
	Peek(n int) ([]byte, error)
}

// newZstdReader returns a zstd decoder of r (nil: for DecodeAll) that
// refuses a window larger than window and, when maxSize > 0, a frame that
// decodes to more than maxSize bytes. It decodes in the calling goroutine:
// no goroutine of its own to end, and no more memory than one window.
func newZstdReader(r io.Reader, window uint64, maxSize uint64) (*zstd.Decoder, error) {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(window)}
	if maxSize > 0 {
		opts = append(opts, zstd.WithDecoderMaxMemory(maxSize))
	}
	return zstd.NewReader(r, opts...)
}

// zstdErrors says that an error of the zstd decoder is one of the
// compression, not of the file's content.
type zstdErrors struct{ d *zstd.Decoder }

func (z zstdErrors) Read(p []byte) (int, error) {
	n, err := z.d.Read(p)
	if err != nil && err != io.EOF {
		err = zstdError(err)
	}
	return n, err
}

// zstdError words an error of the zstd decoder.
func zstdError(err error) error {
	if errors.Is(err, zstd.ErrWindowSizeExceeded) {
		return errors.New("zstd-compressed with a window larger than ivc holds to decompress it (--max-memory raises it, up to 128 MiB: recompress without --long or --ultra)")
	}
	return fmt.Errorf("zstd-compressed content: %w", err)
}

// decompressHead returns what the compressed head decompresses to, as far
// as it goes (head itself when it is not compressed), and, for a head that
// is compressed and yields nothing, the error that stopped it.
func decompressHead(head []byte) ([]byte, error) {
	var zr io.Reader
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		r, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return head, nil
		}
		zr = r
	case bytes.HasPrefix(head, zstdMagic):
		d, err := newZstdReader(bytes.NewReader(head), maxZstdWindow, 0)
		if err != nil {
			return nil, zstdError(err)
		}
		defer d.Close()
		zr = d
	default:
		return head, nil
	}
	out, err := io.ReadAll(io.LimitReader(zr, 1<<20))
	if len(out) == 0 && err != nil && bytes.HasPrefix(head, zstdMagic) {
		return nil, zstdError(err)
	}
	return out, nil
}
