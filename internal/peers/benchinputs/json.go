package benchinputs

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// obj is a JSON object that keeps its members in the order they were added ("$type" first, as a
// PDS writes records), where encoding/json would sort a map's keys: the decoders then meet keys
// out of DAG-CBOR order, as they do on records made elsewhere.
type obj []member

type member struct {
	k string
	v any
}

// writeJSON appends v (obj, []any, string, int, int64, bool or nil) as compact JSON, without
// escaping <, > and &, as a PDS would.
func writeJSON(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case obj:
		buf.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeString(buf, m.k); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeJSON(buf, m.v); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case string:
		return writeString(buf, v)
	case int:
		fmt.Fprint(buf, v)
	case int64:
		fmt.Fprint(buf, v)
	case bool:
		fmt.Fprint(buf, v)
	case nil:
		buf.WriteString("null")
	default:
		return fmt.Errorf("benchinputs: cannot write %T as JSON", v)
	}
	return nil
}

// marshal returns v as compact JSON (see writeJSON).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := writeJSON(&buf, v)
	return buf.Bytes(), err
}

func writeString(buf *bytes.Buffer, s string) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}
