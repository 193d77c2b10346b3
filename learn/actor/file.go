package actor

import (
	"encoding/json"
	"fmt"

	"github.com/leolab/leolab/cc"
)

// Format names the actor file format, Version its version. LegacyFormat
// is the name files were written under while the format was Orca's
// alone (cc/orca before the move here); it is read as Format.
const (
	Format       = "leolab-actor"
	LegacyFormat = "leolab-orca-actor"
	Version      = 1
)

// File is the actor's weights as stored: dense layers, ReLU between
// them, tanh on the output, and how they were trained.
type File struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Layers  []Layer           `json:"layers"`
	Meta    map[string]string `json:"meta,omitempty"`
}

// NewFile is the file of layers with meta, under the current format.
func NewFile(layers []Layer, meta map[string]string) File {
	return File{Format: Format, Version: Version, Layers: layers, Meta: meta}
}

// Parse reads an actor file (name: for errors) whose input is dim values
// and checks its shape.
func Parse(name string, dim int, data []byte) (*Actor, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if (f.Format != Format && f.Format != LegacyFormat) || f.Version != Version {
		return nil, fmt.Errorf("%s: format %q version %d (want %q, or the older name %q, version %d)",
			name, f.Format, f.Version, Format, LegacyFormat, Version)
	}
	return New(name, dim, f.Layers)
}

// FromConfig is the actor of a learned controller named scheme with dim
// inputs: the actor file cfg names under param (cc.Config.Files, read by
// cc.LoadModel), or without one the embedded actor (embeddedName,
// embedded), which must parse: it ships with the binary, so a failure is
// a bug.
func FromConfig(cfg cc.Config, param, scheme string, dim int, embeddedName string, embedded []byte) (*Actor, error) {
	return cc.LoadModel(cfg, scheme, param, embeddedName, embedded, func(name string, data []byte) (*Actor, error) {
		return Parse(name, dim, data)
	})
}
