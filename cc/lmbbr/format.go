package lmbbr

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
)

// GainModel is a trained model as loaded from a file. It makes one
// flow's gain policy: a fresh one per flow, because a policy may keep the
// flow's history (learn/seq's context window).
type GainModel interface {
	NewPolicy(f FlowInfo) (bbr.GainPolicy, error)
}

// FlowInfo is what a policy is told about its flow beyond BBR's state.
type FlowInfo struct {
	// Downlink is the flow's data direction (params.downlink): the
	// sequence model's stream feature.
	Downlink bool
}

// Observer is an optional GainPolicy extension for policies that build
// their own per-interval history: the controller hands them every send
// and every ACK (after BBR has processed it, with its cwnd). Both run on
// the per-ACK path and must not allocate.
type Observer interface {
	ObserveSend(now time.Duration, s cc.SentInfo)
	ObserveAck(now time.Duration, rs *cc.RateSample, cwnd int)
}

// Format is a model file format lmbbr can load.
type Format struct {
	// Version is the file version this build reads.
	Version string
	// Load parses a file of this format and version; file names it in
	// errors. It must validate every shape against the data's length.
	Load func(file string, data []byte) (GainModel, error)
}

// formats holds the registered model formats; the linear one is built
// in, learn/seq adds its own at init (package cc cannot import learn).
var formats = map[string]Format{
	LinearFormat: {Version: strconv.Itoa(LinearVersion), Load: func(file string, data []byte) (GainModel, error) {
		m, err := ParseModel(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return m, nil
	}},
}

// Register adds a model format. It is called from init functions only;
// registering a name twice panics.
func Register(name string, f Format) {
	if name == "" || f.Load == nil || f.Version == "" {
		panic("leolab BUG: lmbbr.Register with empty name, version or loader")
	}
	if _, dup := formats[name]; dup {
		panic("leolab BUG: lmbbr.Register called twice for " + name)
	}
	formats[name] = f
}

// Formats lists the registered formats as "name version N", sorted.
func Formats() []string {
	out := make([]string, 0, len(formats))
	for name, f := range formats {
		out = append(out, name+" version "+f.Version)
	}
	slices.Sort(out)
	return out
}

// LoadFile reads the model file at path (at most cc.MaxModelBytes): the
// format and version it declares pick the loader.
func LoadFile(path string) (GainModel, error) {
	data, err := cc.ReadModelFile(path)
	if err != nil {
		return nil, fmt.Errorf("lmbbr model: %w", err)
	}
	return Load(path, data)
}

// Load parses model file data (named file in errors).
func Load(file string, data []byte) (GainModel, error) {
	name, version, err := declared(data)
	allowed := strings.Join(Formats(), ", ")
	if err != nil {
		return nil, fmt.Errorf("lmbbr model: %s: %v (allowed: %s)", file, err, allowed)
	}
	f, ok := formats[name]
	if !ok {
		return nil, fmt.Errorf("lmbbr model: %s: format %q is not known to this leolab (allowed: %s)", file, name, allowed)
	}
	if version != f.Version {
		return nil, fmt.Errorf("lmbbr model: %s: %s file version %q, this leolab reads version %s", file, name, version, f.Version)
	}
	return f.Load(file, data)
}

// declared reads the format and version a model file names: a JSON
// document's top-level "format" and "version", or the "format" and
// "version" of a safetensors file's __metadata__ (an 8-byte little-endian
// header length, then the JSON header).
func declared(data []byte) (format, version string, err error) {
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		var doc struct {
			Format  string          `json:"format"`
			Version json.RawMessage `json:"version"`
		}
		if err := json.Unmarshal(t, &doc); err != nil {
			return "", "", fmt.Errorf("a JSON model that does not parse: %v", err)
		}
		if doc.Format == "" {
			return "", "", fmt.Errorf("a JSON document without a \"format\" field")
		}
		return doc.Format, strings.Trim(string(doc.Version), `"`), nil
	}
	if len(data) < 8 {
		return "", "", fmt.Errorf("%d bytes: neither a JSON model nor a safetensors file", len(data))
	}
	n := binary.LittleEndian.Uint64(data)
	if n > uint64(len(data)-8) {
		return "", "", fmt.Errorf("neither a JSON model nor a safetensors file (header length %d in a file of %d bytes)", n, len(data))
	}
	var hdr struct {
		Meta map[string]string `json:"__metadata__"`
	}
	if err := json.Unmarshal(data[8:8+n], &hdr); err != nil {
		return "", "", fmt.Errorf("a safetensors header that does not parse: %v", err)
	}
	if hdr.Meta["format"] == "" {
		return "", "", fmt.Errorf("a safetensors file whose metadata names no format (not a leolab model)")
	}
	return hdr.Meta["format"], hdr.Meta["version"], nil
}
