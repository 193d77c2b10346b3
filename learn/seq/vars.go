package seq

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// stDTypes maps gomlx dtypes to safetensors' names.
var stDTypes = map[dtypes.DType]string{dtypes.Float32: "F32", dtypes.Float64: "F64", dtypes.Int32: "I32",
	dtypes.Int64: "I64", dtypes.Uint64: "U64"}

func gomlxDType(name string) (dtypes.DType, bool) {
	for d, n := range stDTypes {
		if n == name {
			return d, true
		}
	}
	return dtypes.InvalidDType, false
}

// varKey names a variable in a file: its scope and name ("/encoder/ln/weight").
func varKey(v *context.Variable) string { return context.JoinScope(v.Scope(), v.Name()) }

// isModelVar tells the model's variables (encoder, backbone, LoRA, head)
// from the optimizer's and the training loop's.
func isModelVar(key string) bool {
	for _, s := range []string{ScopeEncoder, ScopeBackbone, ScopeLoRA, ScopeHead} {
		if strings.HasPrefix(key, "/"+s+"/") {
			return true
		}
	}
	return false
}

// exportVars returns the variables of ctx that keep(key) selects, as
// safetensors tensors.
func exportVars(ctx *context.Context, keep func(key string) bool) (map[string]STensor, error) {
	out := map[string]STensor{}
	for v := range ctx.IterVariables() {
		k := varKey(v)
		if !keep(k) {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", k, err)
		}
		name, ok := stDTypes[t.DType()]
		if !ok {
			return nil, fmt.Errorf("variable %s: dtype %s has no safetensors name", k, t.DType())
		}
		var data []byte
		if err := t.ConstBytes(func(b []byte) { data = slices.Clone(b) }); err != nil {
			return nil, fmt.Errorf("variable %s: %w", k, err)
		}
		out[k] = STensor{DType: name, Shape: slices.Clone(t.Shape().Dimensions), Data: data}
	}
	return out, nil
}

// toTensor converts a safetensors tensor to a gomlx tensor.
func toTensor(st STensor) (*tensors.Tensor, error) {
	dt, ok := gomlxDType(st.DType)
	if !ok {
		return nil, fmt.Errorf("dtype %s not supported", st.DType)
	}
	t := tensors.FromShape(shapes.Make(dt, st.Shape...))
	if err := t.MutableBytes(func(b []byte) { copy(b, st.Data) }); err != nil {
		return nil, err
	}
	return t, nil
}

// setVar creates or overwrites the variable at key with value t.
func setVar(ctx *context.Context, key string, t *tensors.Tensor) error {
	scope, name := context.SplitScope(key)
	c := ctx.InAbsPath(scope).Checked(false)
	if v := c.InspectVariable(c.Scope(), name); v != nil {
		if !v.Shape().Equal(t.Shape()) {
			return fmt.Errorf("%s has shape %s, want %s", key, t.Shape(), v.Shape())
		}
		return v.SetValue(t)
	}
	// Only the optimizer's and the loop's variables are created here
	// (the model's exist from its first forward pass): none is trained.
	c.VariableWithValue(name, t).SetTrainable(false)
	return nil
}
