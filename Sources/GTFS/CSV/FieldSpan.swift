/// Where one field's bytes lie in a row buffer: `start ..< end`, offsets from the row's base.
struct FieldSpan {
    var start: Int32
    var end: Int32
}
