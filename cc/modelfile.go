package cc

import (
	"fmt"

	"github.com/leolab/leolab/internal/bounded"
)

// MaxModelBytes bounds a model file read into memory: GPT-2 124M's
// float32 checkpoint is ~500 MB (124·10⁶ parameters × 4 bytes), the
// largest backbone a user would bring to a 2-core machine; 2 GiB leaves
// room for it and its metadata.
const MaxModelBytes = 1 << 31

// ReadModelFile reads the model file at path, refusing one larger than
// MaxModelBytes. The bound is checked against the file's size before the
// read and again on the bytes read (a file that grows, or a device with
// no size), never against a number inside the file. Errors name the path.
func ReadModelFile(path string) ([]byte, error) {
	data, over, err := bounded.ReadFile(path, MaxModelBytes)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, fmt.Errorf("%s: more than the %d bytes a model file may have", path, int64(MaxModelBytes))
	}
	return data, nil
}

// ModelBytes is the model a learned controller runs: the file cfg names
// under the file parameter param (Config.Files, a scenario's params:
// {model: path}) read by ReadModelFile, or when cfg names none the
// embedded model (embeddedName, embedded). name is the file's path or
// embeddedName, for the parser's errors; errors name the parameter and
// the path. Each controller parses the bytes in its own format.
func ModelBytes(cfg Config, param, embeddedName string, embedded []byte) (name string, data []byte, err error) {
	path := cfg.File(param)
	if path == "" {
		return embeddedName, embedded, nil
	}
	data, err = ReadModelFile(path)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", param, err)
	}
	return path, data, nil
}

// LoadModel is the model of the learned controller scheme: ModelBytes
// parsed by the controller's own parser (name: the path or embeddedName,
// for its errors). Errors read "scheme: param: …". The embedded model
// ships with the binary and must parse, so its failure panics as a bug.
func LoadModel[T any](cfg Config, scheme, param, embeddedName string, embedded []byte, parse func(name string, data []byte) (T, error)) (T, error) {
	var zero T
	name, data, err := ModelBytes(cfg, param, embeddedName, embedded)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", scheme, err)
	}
	m, err := parse(name, data)
	if err != nil {
		if cfg.File(param) == "" {
			panic("leolab BUG: embedded " + scheme + " model " + embeddedName + ": " + err.Error())
		}
		return zero, fmt.Errorf("%s: %s: %w", scheme, param, err)
	}
	return m, nil
}
