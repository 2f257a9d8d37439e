package datamodel

import "testing"

// BenchmarkGoValue measures the generic entry points on a Go struct (the realistic post and
// profile decoded into Lexicon-style structs) beside the same record as a generic tree, and
// beside MarshalCBORStruct: the cost of converting Go values one level at a time (govalue.go),
// which MarshalCBOR, RecordCID and Validate skip for a struct (isGoStruct).
func BenchmarkGoValue(b *testing.B) {
	for _, r := range []struct {
		name string
		into any
	}{{"post", new(cborTestPost)}, {"profile", new(cborTestProfile)}} {
		_, data := readRecord(b, r.name)
		if err := UnmarshalCBORStruct(data, r.into); err != nil {
			b.Fatal(err)
		}
		tree, err := UnmarshalCBOR(data)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range []struct {
			name string
			v    any
		}{{"struct", r.into}, {"tree", tree}} {
			b.Run(r.name+"/MarshalCBOR/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := MarshalCBOR(v.v); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(r.name+"/MarshalJSON/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := MarshalJSON(v.v); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(r.name+"/Validate/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := Validate(v.v); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(r.name+"/RecordCID/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := RecordCID(v.v); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(r.name+"/Blobs/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_ = Blobs(v.v)
				}
			})
		}
		b.Run(r.name+"/MarshalCBORStruct/struct", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := MarshalCBORStruct(r.into); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
