package cc_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc"
)

// ModelBytes gives the embedded bytes without a file parameter, the
// file's bytes with one, and errors naming the parameter and the path
// for a missing file and for one above MaxModelBytes (a sparse file, so
// the test writes nothing to disk).
func TestModelBytes(t *testing.T) {
	emb := []byte(`{"embedded":true}`)
	name, data, err := cc.ModelBytes(cc.Config{}, "model", "x/embedded.json", emb)
	if err != nil || name != "x/embedded.json" || !bytes.Equal(data, emb) {
		t.Fatalf("embedded: %q %q %v", name, data, err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	want := []byte(`{"file":true}`)
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := func(p string) cc.Config { return cc.Config{Files: map[string]string{"model": p}} }
	name, data, err = cc.ModelBytes(cfg(path), "model", "x/embedded.json", emb)
	if err != nil || name != path || !bytes.Equal(data, want) {
		t.Fatalf("file: %q %q %v", name, data, err)
	}
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(cc.MaxModelBytes + 1); err != nil {
		t.Skipf("no sparse file of %d bytes here: %v", int64(cc.MaxModelBytes+1), err)
	}
	f.Close()
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.json"), "no such file"},
		{big, "more than the 2147483648 bytes a model file may have"},
	} {
		_, _, err := cc.ModelBytes(cfg(c.path), "model", "x/embedded.json", emb)
		if err == nil || !strings.HasPrefix(err.Error(), "model: ") || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming the parameter, the path and %q", c.path, err, c.want)
		}
	}
}

// LoadModel parses with the controller's parser: a file it rejects gives
// an error naming the scheme, the parameter and the path; an embedded
// model it rejects is a bug and panics.
func TestLoadModel(t *testing.T) {
	parse := func(name string, data []byte) (string, error) {
		if string(data) != "ok" {
			return "", fmt.Errorf("%s: not ok", name)
		}
		return name, nil
	}
	if got, err := cc.LoadModel(cc.Config{}, "x", "model", "x/embedded", []byte("ok"), parse); err != nil || got != "x/embedded" {
		t.Fatalf("embedded: %q %v", got, err)
	}
	path := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(path, []byte("bad"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := cc.LoadModel(cc.Config{Files: map[string]string{"model": path}}, "x", "model", "x/embedded", []byte("ok"), parse)
	if want := "x: model: " + path + ": not ok"; err == nil || err.Error() != want {
		t.Errorf("bad file: %v, want %q", err, want)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "x/embedded") {
			t.Errorf("a broken embedded model: recovered %v, want a panic naming it", r)
		}
	}()
	cc.LoadModel(cc.Config{}, "x", "model", "x/embedded", []byte("bad"), parse)
}
