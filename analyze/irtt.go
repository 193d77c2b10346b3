package analyze

import (
	"path/filepath"

	"github.com/leolab/leolab/irtt"
)

// addIRTT reads an irtt capture (irtt client -o FILE) as one flow: its
// RTTs, the downlink's (receive) one-way delays, packets and losses; its
// epoch is the client's first send.
func (in *Input) addIRTT(path string, data []byte) error {
	c, err := irtt.Read(path, data)
	if err != nil {
		return err
	}
	f, err := c.Flow(irtt.Downlink)
	if err != nil {
		return err
	}
	in.Flows = append(in.Flows, Flow{File: path, Label: filepath.Base(path), Meta: Meta{CCA: "irtt"},
		Group: "irtt/" + filepath.Base(path), Data: f, Epoch: c.Epoch})
	return nil
}
