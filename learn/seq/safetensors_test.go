package seq

import (
	"bytes"
	gocontext "context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func stBytes(t testing.TB, meta map[string]string, ts map[string]STensor) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, meta, ts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawST builds a file from a literal header and buffer.
func rawST(hdr string, buf []byte) []byte {
	out := make([]byte, 8, 8+len(hdr)+len(buf))
	binary.LittleEndian.PutUint64(out, uint64(len(hdr)))
	return append(append(out, hdr...), buf...)
}

func TestSafetensorsRoundTrip(t *testing.T) {
	ts := map[string]STensor{"a": F32Tensor([]float32{1, -2.5, 3}, 3), "b/c": F32Tensor([]float32{0.5, 1, 2, 4}, 2, 2),
		"s": F32Tensor([]float32{7})}
	data := stBytes(t, map[string]string{"k": "v"}, ts)
	if n := binary.LittleEndian.Uint64(data); n%8 != 0 {
		t.Errorf("header of %d bytes, want a multiple of 8", n)
	}
	f, err := ParseSafetensors(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Meta["k"] != "v" || len(f.Tensors) != 3 {
		t.Fatalf("meta %v, %d tensors", f.Meta, len(f.Tensors))
	}
	v, err := f.Tensors["b/c"].Float32s()
	if err != nil || len(v) != 4 || v[3] != 4 || f.Tensors["b/c"].Shape[0] != 2 {
		t.Fatalf("b/c: %v %v %v", v, f.Tensors["b/c"].Shape, err)
	}
	if again := stBytes(t, f.Meta, f.Tensors); !bytes.Equal(again, data) {
		t.Fatal("rewriting a parsed file changed its bytes")
	}
}

func TestSafetensorsBadInput(t *testing.T) {
	buf8 := make([]byte, 8)
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"short", "need at least the 8-byte header length", []byte{1, 2}},
		{"header larger than file", "header of 1000 bytes", rawST("{}", nil)[:0:0]},
		{"not json", "not a JSON object", rawST("[1,2]", nil)},
		{"dtype", `dtype "F16" (allowed: F32, F64, I32, I64, U64)`, rawST(`{"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}}`, buf8[:4])},
		{"size mismatch", "needs 8 bytes, data_offsets [0 4] span 4", rawST(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, buf8[:4])},
		{"outside buffer", "within the 4-byte buffer", rawST(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, buf8[:4])},
		{"hole", "cover 4 bytes of the 8-byte buffer", rawST(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, buf8)},
		{"overlap", "starts at byte 0, want 4", rawST(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, buf8[:4])},
		{"huge shape", "does not fit the 4-byte buffer", rawST(`{"a":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,4]}}`, buf8[:4])},
		{"unknown field", "want {dtype, shape, data_offsets}", rawST(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}}`, buf8[:4])},
		{"metadata", "__metadata__: want an object of strings", rawST(`{"__metadata__":{"a":1}}`, nil)},
	} {
		data := c.data
		if c.name == "header larger than file" {
			data = rawST("{}", nil)
			binary.LittleEndian.PutUint64(data, 1000)
		}
		_, err := ParseSafetensors(data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to say %q", c.name, err, c.want)
		}
	}
	// The file name leads the error.
	path := filepath.Join(t.TempDir(), "bad.safetensors")
	os.WriteFile(path, []byte{1, 2, 3}, 0o644)
	if _, err := ReadSafetensorsFile(path); err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("file error %v does not start with the path", err)
	}
}

// FuzzReadSafetensors: no input panics or allocates beyond its size, and
// what parses rewrites and parses again to the same tensors.
func FuzzReadSafetensors(f *testing.F) {
	f.Add(stBytes(f, map[string]string{"format": "pt"}, map[string]STensor{"a": F32Tensor([]float32{1, 2}, 2), "b": F32Tensor([]float32{3})}))
	f.Add(rawST(`{"a":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}}`, make([]byte, 8)))
	f.Add(rawST(`{"a":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}`, nil))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := ParseSafetensors(data)
		if err != nil {
			return
		}
		var total int
		for _, ts := range sf.Tensors {
			total += len(ts.Data)
		}
		if total > len(data) {
			t.Fatalf("tensors hold %d bytes of a %d-byte file", total, len(data))
		}
		again, err := ParseSafetensors(stBytes(t, sf.Meta, sf.Tensors))
		if err != nil {
			t.Fatalf("rewritten file does not parse: %v", err)
		}
		if len(again.Tensors) != len(sf.Tensors) {
			t.Fatalf("%d tensors after rewrite, want %d", len(again.Tensors), len(sf.Tensors))
		}
	})
}

// TestLoadModelErrors: a model file of another version, another format,
// a checkpoint given as a model, a tensor of the wrong shape and a
// missing file each give one error naming the file and what was expected.
func TestLoadModelErrors(t *testing.T) {
	m, err := NewModel(tinyConfig(), 1, "")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.WriteModel(&buf); err != nil {
		t.Fatal(err)
	}
	good, err := ParseSafetensors(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, edit func(meta map[string]string, ts map[string]STensor)) string {
		meta := map[string]string{}
		for k, v := range good.Meta {
			meta[k] = v
		}
		ts := map[string]STensor{}
		for k, v := range good.Tensors {
			ts[k] = v
		}
		edit(meta, ts)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, stBytes(t, meta, ts), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, want string
		edit       func(map[string]string, map[string]STensor)
	}{
		{"ok", "", func(map[string]string, map[string]STensor) {}},
		{"v2", `seq model file version "2", this leolab reads version 1`, func(m map[string]string, _ map[string]STensor) { m["version"] = "2" }},
		{"pt", `not a leolab seq model (safetensors metadata format "pt", want "leolab-seq")`, func(m map[string]string, _ map[string]STensor) { m["format"] = "pt" }},
		{"ckpt", "a seq checkpoint file, want a model", func(m map[string]string, _ map[string]STensor) { m["kind"] = "checkpoint" }},
		{"shape", "tensor /head/bias is F32[3], want F32[11]", func(_ map[string]string, ts map[string]STensor) { ts["/head/bias"] = F32Tensor([]float32{1, 2, 3}, 3) }},
		{"missing", "no tensor /head/bias", func(_ map[string]string, ts map[string]STensor) { delete(ts, "/head/bias") }},
		{"extra", "tensor /head/extra is not part of a model", func(_ map[string]string, ts map[string]STensor) { ts["/head/extra"] = F32Tensor([]float32{1}, 1) }},
		{"config", "metadata config: --width 0 is out of range", func(m map[string]string, _ map[string]STensor) {
			m["config"] = strings.Replace(m["config"], `"width":16`, `"width":0`, 1)
		}},
	} {
		p := write(c.name+".safetensors", c.edit)
		_, err := LoadModel(p)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want the path and %q", c.name, err, c.want)
		}
	}
	if _, err := LoadModel(filepath.Join(dir, "nope.safetensors")); err == nil || !strings.Contains(err.Error(), "nope.safetensors") {
		t.Errorf("missing file: err %v", err)
	}
	// A checkpoint that is not a checkpoint.
	seqs := realSequences(t)
	tc := tinyTrain()
	tc.Epochs = 1
	mp := write("model-as-ckpt.safetensors", func(map[string]string, map[string]STensor) {})
	if _, err := Train(gocontext.Background(), tinyConfig(), tc, seqs, TrainOptions{Checkpoint: mp}); err == nil ||
		!strings.Contains(err.Error(), "a seq model file, want a checkpoint") {
		t.Errorf("model as checkpoint: err %v", err)
	}
}
