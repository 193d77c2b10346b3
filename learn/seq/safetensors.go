package seq

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
)

// The safetensors format (huggingface/safetensors, README "Format"): an
// 8-byte little-endian header length N, N bytes of a JSON object mapping
// each tensor name to {"dtype", "shape", "data_offsets": [begin, end]}
// (offsets into the byte buffer that follows the header) plus an optional
// "__metadata__" object of string values, then the buffer, every tensor
// stored row-major, little-endian, the buffer covered without holes.
const (
	// maxHeader caps the JSON header: the reference implementation
	// refuses headers over 100 MB (MAX_HEADER_SIZE in safetensors/src/
	// tensor.rs). GPT-2 124M's header is about 15 kB.
	maxHeader = 100 << 20
	// maxRank bounds a tensor's rank (no model here uses more than 4).
	maxRank = 8
	metaKey = "__metadata__"
)

// dtypeSizes are the element sizes of the dtypes this reader accepts
// (names as in the format's Dtype enum).
var dtypeSizes = map[string]int{"F32": 4, "F64": 8, "I32": 4, "I64": 8, "U64": 8}

// STensor is one tensor of a safetensors file: its dtype name, shape and
// raw little-endian bytes.
type STensor struct {
	DType string
	Shape []int
	Data  []byte
}

// Len is the number of elements.
func (t STensor) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Float32s decodes an F32 tensor.
func (t STensor) Float32s() ([]float32, error) {
	if t.DType != "F32" {
		return nil, fmt.Errorf("dtype %s, want F32", t.DType)
	}
	out := make([]float32, len(t.Data)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.Data[4*i:]))
	}
	return out, nil
}

// SFile is a parsed safetensors file.
type SFile struct {
	Meta    map[string]string
	Tensors map[string]STensor
}

// Names returns the tensor names, sorted.
func (f *SFile) Names() []string {
	out := make([]string, 0, len(f.Tensors))
	for n := range f.Tensors {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

type headerEntry struct {
	DType   string  `json:"dtype"`
	Shape   []int64 `json:"shape"`
	Offsets []int64 `json:"data_offsets"`
}

// ReadSafetensorsFile reads and checks a safetensors file. Every size is
// checked against the file's length before anything is allocated.
func ReadSafetensorsFile(path string) (*SFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := ReadSafetensors(fh, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// ReadSafetensors parses a safetensors stream of size bytes.
func ReadSafetensors(r io.Reader, size int64) (*SFile, error) {
	var lenBuf [8]byte
	if size < 8 {
		return nil, fmt.Errorf("safetensors: %d bytes, need at least the 8-byte header length", size)
	}
	if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("safetensors: header length: %w", err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > maxHeader || int64(n) > size-8 {
		return nil, fmt.Errorf("safetensors: header of %d bytes, allowed at most min(%d, file size %d − 8)", n, maxHeader, size)
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, fmt.Errorf("safetensors: header: %w", err)
	}
	bufLen := size - 8 - int64(n)
	f, spans, err := parseHeader(hdr, bufLen)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, bufLen)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, fmt.Errorf("safetensors: data buffer of %d bytes: %w", bufLen, err)
	}
	for name, sp := range spans {
		t := f.Tensors[name]
		t.Data = buf[sp[0]:sp[1]]
		f.Tensors[name] = t
	}
	return f, nil
}

// ParseSafetensors parses an in-memory safetensors file.
func ParseSafetensors(data []byte) (*SFile, error) {
	return ReadSafetensors(bytes.NewReader(data), int64(len(data)))
}

// parseHeader checks the header against a buffer of bufLen bytes: known
// dtypes, non-negative shapes whose byte size is the offsets' span, spans
// inside the buffer that tile it exactly.
func parseHeader(hdr []byte, bufLen int64) (*SFile, map[string][2]int64, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, nil, fmt.Errorf("safetensors: header is not a JSON object: %v", err)
	}
	f := &SFile{Meta: map[string]string{}, Tensors: map[string]STensor{}}
	spans := map[string][2]int64{}
	type span struct {
		lo, hi int64
		name   string
	}
	var order []span
	for name, msg := range raw {
		if name == metaKey {
			if err := json.Unmarshal(msg, &f.Meta); err != nil {
				return nil, nil, fmt.Errorf("safetensors: %s: want an object of strings: %v", metaKey, err)
			}
			continue
		}
		var e headerEntry
		dec := json.NewDecoder(bytes.NewReader(msg))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: want {dtype, shape, data_offsets}: %v", name, err)
		}
		size, ok := dtypeSizes[e.DType]
		if !ok {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: dtype %q (allowed: F32, F64, I32, I64, U64)", name, e.DType)
		}
		if len(e.Shape) > maxRank {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: rank %d, at most %d", name, len(e.Shape), maxRank)
		}
		if len(e.Offsets) != 2 || e.Offsets[0] < 0 || e.Offsets[1] < e.Offsets[0] || e.Offsets[1] > bufLen {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: data_offsets %v, want [begin, end] within the %d-byte buffer", name, e.Offsets, bufLen)
		}
		elems := int64(1)
		shape := make([]int, len(e.Shape))
		for i, d := range e.Shape {
			if d < 0 || (d > 0 && elems > bufLen/d) {
				return nil, nil, fmt.Errorf("safetensors: tensor %q: shape %v does not fit the %d-byte buffer", name, e.Shape, bufLen)
			}
			elems *= d
			shape[i] = int(d)
		}
		if want := elems * int64(size); e.Offsets[1]-e.Offsets[0] != want {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: %s%v needs %d bytes, data_offsets %v span %d",
				name, e.DType, e.Shape, want, e.Offsets, e.Offsets[1]-e.Offsets[0])
		}
		f.Tensors[name] = STensor{DType: e.DType, Shape: shape}
		spans[name] = [2]int64{e.Offsets[0], e.Offsets[1]}
		order = append(order, span{e.Offsets[0], e.Offsets[1], name})
	}
	slices.SortFunc(order, func(a, b span) int {
		if a.lo != b.lo {
			return int(a.lo - b.lo)
		}
		return strings.Compare(a.name, b.name)
	})
	at := int64(0)
	for _, s := range order {
		if s.lo != at {
			return nil, nil, fmt.Errorf("safetensors: tensor %q starts at byte %d, want %d (tensors must tile the buffer)", s.name, s.lo, at)
		}
		at = s.hi
	}
	if at != bufLen {
		return nil, nil, fmt.Errorf("safetensors: tensors cover %d bytes of the %d-byte buffer", at, bufLen)
	}
	return f, spans, nil
}

// WriteSafetensors writes tensors (in name order) with metadata meta.
// The output is a deterministic function of its arguments: the header's
// keys are sorted (encoding/json sorts map keys) and it is padded with
// spaces to a multiple of 8 bytes, as the reference writer aligns it.
func WriteSafetensors(w io.Writer, meta map[string]string, tensors map[string]STensor) error {
	hdr := map[string]any{}
	if len(meta) > 0 {
		hdr[metaKey] = meta
	}
	names := make([]string, 0, len(tensors))
	for n := range tensors {
		names = append(names, n)
	}
	slices.Sort(names)
	off := int64(0)
	for _, n := range names {
		t := tensors[n]
		size, ok := dtypeSizes[t.DType]
		if !ok {
			return fmt.Errorf("safetensors: tensor %q: dtype %q not writable", n, t.DType)
		}
		if int64(t.Len()*size) != int64(len(t.Data)) {
			return fmt.Errorf("safetensors: tensor %q: %d bytes for shape %v", n, len(t.Data), t.Shape)
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		hdr[n] = map[string]any{"dtype": t.DType, "shape": shape, "data_offsets": []int64{off, off + int64(len(t.Data))}}
		off += int64(len(t.Data))
	}
	js, err := json.Marshal(hdr)
	if err != nil {
		return err
	}
	for len(js)%8 != 0 {
		js = append(js, ' ')
	}
	var lenBuf [8]byte
	binary.LittleEndian.PutUint64(lenBuf[:], uint64(len(js)))
	if _, err := w.Write(lenBuf[:]); err != nil {
		return err
	}
	if _, err := w.Write(js); err != nil {
		return err
	}
	for _, n := range names {
		if _, err := w.Write(tensors[n].Data); err != nil {
			return err
		}
	}
	return nil
}

// F32Tensor encodes float32 values of the given shape.
func F32Tensor(v []float32, shape ...int) STensor {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return STensor{DType: "F32", Shape: shape, Data: b}
}
