package cc_test

import (
	"bytes"
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
