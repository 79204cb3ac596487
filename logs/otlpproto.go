package logs

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/klauspost/compress/zstd"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/ivc-project/ivc/syntax"
)

// OTLP/protobuf files come in two shapes, told apart by their first byte:
//
//   - one serialized ExportTraceServiceRequest (or TracesData: the same
//     bytes), as an OTLP/HTTP body saved to a file: its fields are its
//     resource spans (field 1, so the file starts with 0x0a);
//   - the Collector's file exporter with format: proto, a stream of
//     messages each behind its length (4 bytes, big-endian): a length
//     under 16 MiB starts with 0x00. With compression: zstd each message
//     is a zstd frame on its own, of protobuf (format: proto) or of
//     OTLP/JSON (format: json).
//
// Both are read one part at a time, a resource spans of a request, a
// message of the stream, so that memory follows the largest part, not the
// file; a part longer than the value limit (MaxLine, Options.MaxMemory) is
// an error naming its offset, which ends the reading of the file, as a
// truncated one does. A part that does not decode is reported and skipped.
// Errors say "file:N: ..." with N the part's number, from 1, and its
// offset in bytes.

// isOTLPProto reports whether head, the first bytes of a file (or all of
// it), is OTLP/protobuf in one of its shapes: binary, and fields that
// follow the structure of TracesData as far as head goes.
func isOTLPProto(head []byte) bool {
	if len(head) < 2 || !isBinary(head) {
		return false
	}
	if head[0] == resourceSpansTag {
		return isTracesData(head)
	}
	if len(head) < 5 {
		return false
	}
	n := int(binary.BigEndian.Uint32(head))
	msg := head[4:min(len(head), 4+n)]
	return n > 0 && (bytes.HasPrefix(msg, zstdMagic) || isTracesData(msg))
}

// resourceSpansTag is the first byte of a field resource_spans (1, of wire
// type LEN) of a TracesData message.
const resourceSpansTag = 1<<3 | 2

// isTracesData reports whether b, the start of a message, starts as a
// TracesData does: a field resource_spans, itself starting with a field
// of ResourceSpans (resource, scope_spans, schema_url, or the deprecated
// instrumentation_library_spans, field 1000), as far as b goes. What
// follows is the reader's to judge.
func isTracesData(b []byte) bool {
	if len(b) < 2 || b[0] != resourceSpansTag {
		return false
	}
	n, k := binary.Uvarint(b[1:])
	if k <= 0 {
		return false
	}
	b = b[1+k:]
	switch {
	case n == 0 || len(b) == 0:
		return true
	case b[0] == 1<<3|2, b[0] == 2<<3|2, b[0] == 3<<3|2:
		return true
	}
	return bytes.HasPrefix(b, []byte{0xc2, 0x3e}) // 1000<<3 | 2
}

// protoReader reads the parts of an OTLP/protobuf file, counting their
// offsets.
type protoReader struct {
	r         *spanReader
	br        *bufio.Reader
	off       int64  // of the next byte of the file
	max       int    // the most bytes of a part
	what      string // a part: "resource spans" or "message"
	buf, zbuf []byte
	zd        *zstd.Decoder // of the messages compressed one by one
	window    uint64
	u         ptrace.JSONUnmarshaler
}

// What readOTLPProto expects, for checkFound.
const protoExpected = "one ExportTraceServiceRequest, or the file exporter's messages each behind its 4-byte length"

// readOTLPProto reads OTLP/protobuf traces (see isOTLPProto): spans map
// to events as in OTLP/JSON (spanReader.traces).
func readOTLPProto(b *builder, in io.Reader, opt *Options) error {
	p := &protoReader{r: newSpanReader(b, opt), br: bufio.NewReaderSize(in, chunk), max: opt.maxValue(), window: zstdWindow(opt)}
	first, err := p.br.Peek(1)
	switch {
	case len(first) == 0 && err == io.EOF:
		return nil
	case len(first) == 0:
		return err
	case first[0] == resourceSpansTag:
		p.what = "resource spans"
		err = p.request()
	default:
		p.what = "message"
		err = p.stream()
	}
	if p.zd != nil {
		p.zd.Close()
	}
	if ferr := p.r.flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return b.stop(err)
	}
	return p.r.checkFound("OTLP/protobuf", protoExpected)
}

// uvarint reads a varint, as binary.ReadUvarint does, but with errors
// to tell apart: io.EOF before it, io.ErrUnexpectedEOF within it,
// errVarint past 10 bytes, or the reader's own.
func (p *protoReader) uvarint() (uint64, error) {
	var v uint64
	for i := range binary.MaxVarintLen64 {
		c, err := p.br.ReadByte()
		if err != nil {
			if err == io.EOF && i > 0 {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		p.off++
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break
			}
			return v | uint64(c)<<(7*i), nil
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	return 0, errVarint
}

var errVarint = errors.New("a varint longer than 10 bytes")

// cut returns the error of part n, at offset off, that err ended: the end
// of the file within it (a positioned error that ends the reading, what
// was read before kept), or an error of reading the input itself.
func (p *protoReader) cut(n int, off int64, err error, where string) error {
	switch err {
	case io.EOF, io.ErrUnexpectedEOF:
		return p.errorAt(n, off, "the file ends in %s", where)
	case errVarint:
		return p.errorAt(n, off, "%s: %v", where, err)
	}
	return err
}

// errorAt returns the error of part n, at offset off.
func (p *protoReader) errorAt(n int, off int64, format string, args ...any) error {
	return errorAt(p.r.b.file, n, 0, fmt.Sprintf("OTLP/protobuf %s at byte %d: %s", p.what, off, fmt.Sprintf(format, args...)))
}

// malformed reports part n, at offset off, which is skipped.
func (p *protoReader) malformed(n int, off int64, format string, args ...any) {
	p.r.b.malformed(n, 0, "OTLP/protobuf %s at byte %d: %s", p.what, off, fmt.Sprintf(format, args...))
}

// tooLong returns the error of part n, at offset off, of size bytes.
func (p *protoReader) tooLong(n int, off int64, size uint64) error {
	return p.errorAt(n, off, "%d bytes, more than the %d bytes one value may hold%s", size, p.max, raiseHint(p.max))
}

// read reads the next n bytes into p.buf, after its first keep bytes.
func (p *protoReader) read(keep, n int) error {
	p.buf = slices.Grow(p.buf[:keep], n)[:keep+n]
	k, err := io.ReadFull(p.br, p.buf[keep:])
	p.off += int64(k)
	return err
}

// request reads one ExportTraceServiceRequest, a resource spans at a time:
// the bytes of one field resource_spans are a TracesData of that resource
// alone.
func (p *protoReader) request() error {
	for n := 1; ; n++ {
		start := p.off
		tag, err := p.uvarint()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return p.cut(n, start, err, "a field's tag")
		}
		if tag != resourceSpansTag {
			return p.errorAt(n, start, "field %d of wire type %d: a TracesData holds only resource spans (field 1, of wire type 2)", tag>>3, tag&7)
		}
		size, err := p.uvarint()
		if err != nil {
			return p.cut(n, start, err, "a field's length")
		}
		if size > uint64(p.max) {
			return p.tooLong(n, start, size)
		}
		p.buf = binary.AppendUvarint(binary.AppendUvarint(p.buf[:0], tag), size)
		if err := p.read(len(p.buf), int(size)); err != nil {
			return p.cut(n, start, err, fmt.Sprintf("its %d bytes", size))
		}
		if err := p.decode(n, start, p.buf); err != nil {
			return err
		}
	}
}

// stream reads the file exporter's messages, each behind its length.
func (p *protoReader) stream() error {
	for n := 1; ; n++ {
		start := p.off
		if err := p.read(0, 4); err != nil {
			if err == io.EOF {
				return nil
			}
			return p.cut(n, start, err, "the 4 bytes of its length")
		}
		size := binary.BigEndian.Uint32(p.buf)
		if uint64(size) > uint64(p.max) {
			return p.tooLong(n, start, uint64(size))
		}
		if err := p.read(0, int(size)); err != nil {
			return p.cut(n, start, err, fmt.Sprintf("its %d bytes", size))
		}
		msg := p.buf
		if bytes.HasPrefix(msg, zstdMagic) { // compression: zstd, a frame a message
			var err error
			if msg, err = p.unzstd(msg); err != nil {
				p.malformed(n, start, "%v", err)
				continue
			}
		}
		if err := p.decode(n, start, msg); err != nil {
			return err
		}
	}
}

// unzstd decompresses a message that is one zstd frame, up to the value
// limit.
func (p *protoReader) unzstd(msg []byte) ([]byte, error) {
	if p.zd == nil {
		zd, err := newZstdReader(nil, p.window, uint64(p.max))
		if err != nil {
			return nil, err
		}
		p.zd = zd
	}
	out, err := p.zd.DecodeAll(msg, p.zbuf[:0])
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return nil, fmt.Errorf("zstd-compressed, and more than the %d bytes one value may hold once decompressed%s", p.max, raiseHint(p.max))
	}
	if err != nil {
		return nil, zstdError(err)
	}
	p.zbuf = out
	return out, nil
}

// decode reads the spans of part n at offset off: a TracesData, or, from
// the file exporter's format: json, an OTLP/JSON object. A TracesData is
// read from its bytes (otlpwire.go), or by pdata where that reading is not
// sure to read it as pdata does.
func (p *protoReader) decode(n int, off int64, msg []byte) error {
	p.r.docs++
	var td ptrace.Traces
	if body := msg[skipSpace(msg, 0):]; len(body) > 0 && body[0] == '{' {
		if w := p.r.wireReader(); w.decodeJSON(p.r, body, false) {
			defer w.reset()
			p.r.found++
			return p.r.addWire(w, nil, n, 0)
		}
		var bad *syntax.Error
		if td, bad = decodeOTLP(&p.u, body, nil, n, 0); bad != nil {
			p.malformed(n, off, "%s", bad.Msg)
			return nil
		}
	} else {
		if w := p.r.wireReader(); w.decode(p.r, msg) {
			defer w.reset()
			if len(w.rss) > 0 {
				p.r.found++
			}
			return p.r.addWire(w, nil, n, 0)
		}
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(msg); err != nil {
			p.malformed(n, off, "%v", err)
			return nil
		}
		td = req.Traces()
	}
	if td.ResourceSpans().Len() > 0 {
		p.r.found++
	}
	return p.r.traces(td, nil, n, 0)
}
