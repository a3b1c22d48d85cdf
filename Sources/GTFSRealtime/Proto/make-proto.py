#!/usr/bin/env python3
"""Writes gtfs-realtime.proto from the descriptor embedded in gtfs-realtime-bindings (PyPI), then checks it.

The PyPI package ships no .proto, only gtfs_realtime_pb2.py, which holds the serialized FileDescriptorProto
that protoc made from the official definition. This script reads that descriptor (without importing the
module, so the protobuf runtime's version check does not matter), prints it back as proto2 text and, unless
--no-check is given, compiles the text with protoc and requires the two descriptors to be byte for byte equal.

Usage (in a virtual environment with `pip install protobuf`):
    python3 make-proto.py /path/to/gtfs_realtime_bindings-3.0.0.tar.gz   # or the gtfs_realtime_pb2.py itself
Options: --out DIR (default: this script's folder), --protoc PATH (default: protoc on PATH), --no-check.
"""

import argparse
import difflib
import ast
import os
import subprocess
import sys
import tarfile
import tempfile

from google.protobuf import descriptor_pb2, text_format

FDP = descriptor_pb2.FieldDescriptorProto
SCALAR_TYPES = {
    FDP.TYPE_DOUBLE: "double", FDP.TYPE_FLOAT: "float", FDP.TYPE_INT64: "int64", FDP.TYPE_UINT64: "uint64",
    FDP.TYPE_INT32: "int32", FDP.TYPE_FIXED64: "fixed64", FDP.TYPE_FIXED32: "fixed32", FDP.TYPE_BOOL: "bool",
    FDP.TYPE_STRING: "string", FDP.TYPE_BYTES: "bytes", FDP.TYPE_UINT32: "uint32", FDP.TYPE_SFIXED32: "sfixed32",
    FDP.TYPE_SFIXED64: "sfixed64", FDP.TYPE_SINT32: "sint32", FDP.TYPE_SINT64: "sint64",
}
LABELS = {FDP.LABEL_OPTIONAL: "optional", FDP.LABEL_REQUIRED: "required", FDP.LABEL_REPEATED: "repeated"}
# The largest field number plus one: how a descriptor writes an extension range that runs to the end.
MAX_FIELD_END = 536870912

HEADER = """\
// The GTFS Realtime definition as published in gtfs-realtime-bindings {version} on PyPI (maintained
// by MobilityData, https://github.com/MobilityData/gtfs-realtime-bindings). Written by make-proto.py
// from the FileDescriptorProto embedded in google/transit/gtfs_realtime_pb2.py; do not edit, regenerate
// (see README.md). A descriptor carries no comments, so the specification's documentation is not here.
//
// Copyright 2015-2019 Google Inc., MobilityData
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

"""


def fail(message):
    sys.exit("make-proto.py: " + message)


def read_module_source(path):
    """The text of gtfs_realtime_pb2.py, from the file itself or from the sdist archive that holds it."""
    if path.endswith((".tar.gz", ".tgz")):
        with tarfile.open(path) as archive:
            for member in archive.getmembers():
                if member.name.endswith("google/transit/gtfs_realtime_pb2.py"):
                    return archive.extractfile(member).read().decode("utf-8")
        fail(f"{path} holds no google/transit/gtfs_realtime_pb2.py")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def embedded_descriptor(source):
    """The bytes literal passed to AddSerializedFile, found in the syntax tree and never executed."""
    found = [
        node.args[0] for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "AddSerializedFile"
    ]
    if len(found) != 1:
        fail(f"expected one AddSerializedFile call, found {len(found)}")
    return ast.literal_eval(found[0])


def package_version(source_path):
    name = os.path.basename(source_path)
    prefix = "gtfs_realtime_bindings-"
    if name.startswith(prefix):
        return name[len(prefix):].removesuffix(".tar.gz").removesuffix(".tgz")
    return "(version unknown)"


def quoted(text):
    """A proto string literal; protoc's tokenizer reads these C escapes back to the same bytes."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in "\"\\":
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def option_items(options):
    """`name = value` for each set option. Custom options would sit in unknown fields and be left out; the
    descriptor comparison would then fail, so none can be lost silently."""
    items = []
    for field, value in options.ListFields():
        # protobuf 7 dropped FieldDescriptor.label for is_repeated; older runtimes have only the label.
        repeated = field.is_repeated if hasattr(field, "is_repeated") else field.label == field.LABEL_REPEATED
        if repeated:
            fail(f"repeated option {field.name} is not supported")
        if field.type == field.TYPE_BOOL:
            text = "true" if value else "false"
        elif field.type == field.TYPE_ENUM:
            text = field.enum_type.values_by_number[value].name
        elif field.type == field.TYPE_STRING:
            text = quoted(value)
        elif field.type in (field.TYPE_MESSAGE, field.TYPE_GROUP):
            fail(f"message-valued option {field.name} is not supported")
        else:
            text = str(value)
        items.append(f"{field.name} = {text}")
    return items


def type_name(field, package):
    if field.type in SCALAR_TYPES:
        return SCALAR_TYPES[field.type]
    if field.type == FDP.TYPE_GROUP:
        fail(f"group field {field.name} is not supported")
    # Names relative to the package read best; the descriptor comparison catches a name that would resolve
    # to another type.
    prefix = f".{package}."
    return field.type_name[len(prefix):] if field.type_name.startswith(prefix) else field.type_name


def default_text(field):
    if field.type == FDP.TYPE_STRING:
        return quoted(field.default_value)
    if field.type == FDP.TYPE_BYTES:
        return '"' + field.default_value + '"'  # the descriptor keeps bytes defaults C-escaped already
    return field.default_value  # numbers, bools and enum value names are written as they read


def field_line(field, package):
    if field.HasField("oneof_index") or field.proto3_optional:
        fail(f"oneof field {field.name} is not supported")
    if field.HasField("json_name"):
        fail(f"json_name of {field.name} is not supported")
    brackets = ([f"default = {default_text(field)}"] if field.HasField("default_value") else [])
    brackets += option_items(field.options)
    suffix = f" [{', '.join(brackets)}]" if brackets else ""
    return f"{LABELS[field.label]} {type_name(field, package)} {field.name} = {field.number}{suffix};"


def enum_lines(enum, indent):
    pad = "  " * indent
    lines = [f"{pad}enum {enum.name} {{"]
    lines += [f"{pad}  option {item};" for item in option_items(enum.options)]
    if enum.reserved_range or enum.reserved_name:
        fail(f"reserved values in enum {enum.name} are not supported")
    for value in enum.value:
        items = option_items(value.options)
        suffix = f" [{', '.join(items)}]" if items else ""
        lines.append(f"{pad}  {value.name} = {value.number}{suffix};")
    lines.append(f"{pad}}}")
    return lines


def range_text(start, end):
    """`1000 to 1999`: descriptors store the end exclusive, the language writes it inclusive."""
    if end == MAX_FIELD_END:
        return f"{start} to max"
    return str(start) if end - start == 1 else f"{start} to {end - 1}"


def message_lines(message, package, indent):
    pad = "  " * indent
    if message.oneof_decl or message.extension or message.reserved_range or message.reserved_name:
        fail(f"oneofs, extensions and reserved ranges in {message.name} are not supported")
    lines = [f"{pad}message {message.name} {{"]
    lines += [f"{pad}  option {item};" for item in option_items(message.options)]
    lines += [f"{pad}  {field_line(field, package)}" for field in message.field]
    # Fields, nested messages and nested enums are separate lists in a descriptor, each in declaration
    # order; writing each list in order keeps the descriptor identical whatever the original interleaving.
    for nested in message.nested_type:
        lines += [""] + message_lines(nested, package, indent + 1)
    for enum in message.enum_type:
        lines += [""] + enum_lines(enum, indent + 1)
    for extension_range in message.extension_range:
        if extension_range.HasField("options"):
            fail(f"extension range options in {message.name} are not supported")
        lines.append(f"{pad}  extensions {range_text(extension_range.start, extension_range.end)};")
    lines.append(f"{pad}}}")
    return lines


def proto_text(descriptor, version):
    if descriptor.syntax not in ("", "proto2"):
        fail(f"syntax {descriptor.syntax} is not supported")
    if descriptor.dependency or descriptor.extension or descriptor.service:
        fail("imports, top-level extensions and services are not supported")
    lines = [HEADER.format(version=version).rstrip("\n"), "", 'syntax = "proto2";', ""]
    lines += [f"option {item};" for item in option_items(descriptor.options)]
    lines += ["", f"package {descriptor.package};"]
    for enum in descriptor.enum_type:
        lines += [""] + enum_lines(enum, 0)
    for message in descriptor.message_type:
        lines += [""] + message_lines(message, descriptor.package, 0)
    return "\n".join(lines) + "\n"


def default_json_name(name):
    """protoc's ToJsonName: underscores dropped, the letter after each one upper-cased."""
    out, upper_next = [], False
    for char in name:
        if char == "_":
            upper_next = True
        else:
            out.append(char.upper() if upper_next else char)
            upper_next = False
    return "".join(out)


def clear_default_json_names(message):
    """protoc's descriptor sets fill json_name in; the generator that made gtfs_realtime_pb2.py left it out.
    Only a json_name equal to the one derived from the field name is cleared, so an explicit one would still
    show as a difference."""
    for field in message.field:
        if field.json_name == default_json_name(field.name):
            field.ClearField("json_name")
    for nested in message.nested_type:
        clear_default_json_names(nested)


def check(proto_path, expected, embedded_bytes, protoc):
    """Compiles the written file and compares its descriptor with the embedded one, byte for byte."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "set.pb")
        folder, name = os.path.split(proto_path)
        subprocess.run([protoc, f"--proto_path={folder}", f"--descriptor_set_out={out}", name], check=True)
        with open(out, "rb") as handle:
            descriptor_set = descriptor_pb2.FileDescriptorSet.FromString(handle.read())
    if len(descriptor_set.file) != 1:
        fail(f"protoc wrote {len(descriptor_set.file)} files")
    compiled = descriptor_set.file[0]
    for message in compiled.message_type:
        clear_default_json_names(message)
    if compiled != expected:
        mine = text_format.MessageToString(compiled).splitlines()
        theirs = text_format.MessageToString(expected).splitlines()

        sys.stderr.write("\n".join(difflib.unified_diff(theirs, mine, "embedded", "compiled", lineterm="")) + "\n")
        fail("the compiled descriptor differs from the embedded one")
    if compiled.SerializeToString(deterministic=True) != embedded_bytes:
        fail("the descriptors compare equal but the compiled one serializes to other bytes than the embedded")
    version = subprocess.run([protoc, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"check passed ({version}): the compiled descriptor serializes to the embedded bytes exactly"
          f" ({len(embedded_bytes)} bytes, {len(expected.message_type)} top-level messages; json_name cleared where"
          " protoc derived it)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="gtfs_realtime_bindings-<version>.tar.gz or its gtfs_realtime_pb2.py")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--protoc", default="protoc")
    parser.add_argument("--no-check", action="store_true")
    arguments = parser.parse_args()

    data = embedded_descriptor(read_module_source(arguments.source))
    descriptor = descriptor_pb2.FileDescriptorProto.FromString(data)
    if descriptor.name != "gtfs-realtime.proto":
        fail(f"unexpected descriptor {descriptor.name}")
    path = os.path.join(arguments.out, descriptor.name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(proto_text(descriptor, package_version(arguments.source)))
    print(f"wrote {path} ({len(data)} descriptor bytes)")
    if not arguments.no_check:
        check(path, descriptor, data, arguments.protoc)


if __name__ == "__main__":
    main()
