//! The memory instructions of a disassembled cubin (`nvdisasm -g -c`), each
//! with the source line the compiler attributes it to and the number of
//! loops around it.

use hone_emulator::AccessKind;

/// Which memory an instruction addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    /// `LD`/`ST`: a generic address the compiler could not place.
    Generic,
}

/// One load or store of global or shared memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemInstr {
    pub function: String,
    pub address: u64,
    /// The instruction as printed, without predicate and operands (`LDS.128`).
    pub opcode: String,
    pub space: Space,
    pub kind: AccessKind,
    /// Bytes per lane.
    pub width: u32,
    pub file: String,
    pub line: u32,
    /// Loops of the function's code that contain the instruction.
    pub depth: u32,
}

/// What a listing holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    pub instrs: Vec<MemInstr>,
}

impl Listing {
    /// Reads `nvdisasm -g -c` output. Lines it does not know are skipped,
    /// so a newer disassembler's extra annotations do no harm.
    pub fn parse(text: &str) -> Listing {
        let mut instrs = Vec::new();
        let mut function = String::new();
        let mut body: Vec<Raw> = Vec::new();
        let mut labels: Vec<(String, usize)> = Vec::new();
        let mut place: Option<(String, u32)> = None;
        for raw_line in text.lines() {
            let line = raw_line.trim();
            if let Some(name) = section_function(line) {
                finish(&function, &mut body, &mut labels, &mut instrs);
                function = name.to_string();
                place = None;
                continue;
            }
            if let Some(rest) = line.strip_prefix("//## File ") {
                place = file_line(rest);
                continue;
            }
            if let Some(label) = line.strip_suffix(':') {
                if label.starts_with(".L") {
                    labels.push((label.to_string(), body.len()));
                }
                continue;
            }
            if let Some(ins) = instruction(line) {
                body.push(Raw {
                    address: ins.0,
                    text: ins.1.to_string(),
                    place: place.clone(),
                });
            }
        }
        finish(&function, &mut body, &mut labels, &mut instrs);
        Listing { instrs }
    }
}

struct Raw {
    address: u64,
    text: String,
    place: Option<(String, u32)>,
}

/// `.section .text.NAME,"ax",@progbits` starts a function's code.
fn section_function(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(".section")?.trim_start();
    let name = rest.strip_prefix(".text.")?;
    Some(name.split(',').next().unwrap_or(name).trim())
}

/// `"path", line 12` (possibly followed by `inlined at ...`).
fn file_line(rest: &str) -> Option<(String, u32)> {
    let rest = rest.strip_prefix('"')?;
    let end = rest.find("\", line ")?;
    let file = unescape(&rest[..end]);
    let digits: String = rest[end + 8..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((file, digits.parse().ok()?))
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `/*0050*/   @!P0 LDG.E R7, desc[UR6][R2.64] ;` -> (0x50, the text after
/// the address).
fn instruction(line: &str) -> Option<(u64, &str)> {
    let rest = line.strip_prefix("/*")?;
    let end = rest.find("*/")?;
    let address = u64::from_str_radix(&rest[..end], 16).ok()?;
    let text = rest[end + 2..].trim();
    (!text.is_empty()).then_some((address, text))
}

/// The opcode, without a predicate.
fn opcode(text: &str) -> &str {
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    let op = if first.starts_with('@') {
        words.next().unwrap_or("")
    } else {
        first
    };
    op.trim_end_matches(';')
}

/// Space, kind and width of a memory opcode; `None` for anything else
/// (local memory, constant banks, atomics and asynchronous copies are not
/// the requests compared).
fn classify(op: &str) -> Option<(Space, AccessKind, u32)> {
    let mut parts = op.split('.');
    let base = parts.next()?;
    let (space, kind) = match base {
        "LDG" => (Space::Global, AccessKind::Load),
        "STG" => (Space::Global, AccessKind::Store),
        "LDS" | "LDSM" => (Space::Shared, AccessKind::Load),
        "STS" => (Space::Shared, AccessKind::Store),
        "LD" => (Space::Generic, AccessKind::Load),
        "ST" => (Space::Generic, AccessKind::Store),
        _ => return None,
    };
    let mut width = 4;
    for m in parts {
        width = match m {
            "U8" | "S8" => 1,
            "U16" | "S16" => 2,
            "64" => 8,
            "128" => 16,
            _ => continue,
        };
    }
    if base == "LDSM" {
        width = 16;
    }
    Some((space, kind, width))
}

/// The label a branch goes to: ``BRA `(.L_x_3) ;``.
fn branch_target(text: &str) -> Option<&str> {
    let op = opcode(text);
    if !(op == "BRA" || op.starts_with("BRA.")) {
        return None;
    }
    let start = text.find("`(")? + 2;
    let end = start + text[start..].find(')')?;
    Some(&text[start..end])
}

fn finish(
    function: &str,
    body: &mut Vec<Raw>,
    labels: &mut Vec<(String, usize)>,
    out: &mut Vec<MemInstr>,
) {
    // A branch back to an earlier (or its own) instruction closes a loop
    // over the code between; compiled loops are contiguous.
    let mut loops: Vec<(u64, u64)> = Vec::new();
    for r in body.iter() {
        let Some(target) = branch_target(&r.text) else {
            continue;
        };
        let Some(&(_, at)) = labels.iter().find(|(l, _)| l == target) else {
            continue;
        };
        let Some(t) = body.get(at) else { continue };
        if t.address <= r.address {
            loops.push((t.address, r.address));
        }
    }
    for r in body.iter() {
        let op = opcode(&r.text);
        let Some((space, kind, width)) = classify(op) else {
            continue;
        };
        let Some((file, line)) = r.place.clone() else {
            continue;
        };
        let depth = loops
            .iter()
            .filter(|(a, b)| (*a..=*b).contains(&r.address))
            .count() as u32;
        out.push(MemInstr {
            function: function.to_string(),
            address: r.address,
            opcode: op.to_string(),
            space,
            kind,
            width,
            file,
            line,
            depth,
        });
    }
    body.clear();
    labels.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    const LISTING: &str = r#"
	.section	.text.column_sum,"ax",@progbits
	.align	128
        .global         column_sum
column_sum:
.text.column_sum:
	//## File "/src/k.cu", line 5
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0050*/                   LDG.E R7, desc[UR6][R2.64] ;
        /*0060*/                   STS [R8], R7 ;
.L_x_0:
	//## File "/src/k.cu", line 9
        /*0070*/                   LDS.128 R20, [R2] ;
        /*0080*/              @!P0 STG.E.64 desc[UR6][R4.64], R6 ;
        /*0090*/              @P1 BRA `(.L_x_0) ;
	//## File "/src/a \"b\".cu", line 3
        /*00a0*/                   LDG.E.U8 R9, desc[UR6][R2.64] ;
        /*00b0*/                   EXIT ;
"#;

    #[test]
    fn reads_memory_instructions_with_lines_and_loops() {
        let l = Listing::parse(LISTING);
        let got: Vec<(&str, Space, AccessKind, u32, &str, u32, u32)> = l
            .instrs
            .iter()
            .map(|i| {
                (
                    i.opcode.as_str(),
                    i.space,
                    i.kind,
                    i.width,
                    i.file.as_str(),
                    i.line,
                    i.depth,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "LDG.E",
                    Space::Global,
                    AccessKind::Load,
                    4,
                    "/src/k.cu",
                    5,
                    0
                ),
                (
                    "STS",
                    Space::Shared,
                    AccessKind::Store,
                    4,
                    "/src/k.cu",
                    5,
                    0
                ),
                (
                    "LDS.128",
                    Space::Shared,
                    AccessKind::Load,
                    16,
                    "/src/k.cu",
                    9,
                    1
                ),
                (
                    "STG.E.64",
                    Space::Global,
                    AccessKind::Store,
                    8,
                    "/src/k.cu",
                    9,
                    1
                ),
                (
                    "LDG.E.U8",
                    Space::Global,
                    AccessKind::Load,
                    1,
                    "/src/a \"b\".cu",
                    3,
                    0
                ),
            ]
        );
        assert!(l.instrs.iter().all(|i| i.function == "column_sum"));
    }

    #[test]
    fn tolerates_text_it_does_not_know() {
        let l = Listing::parse("garbage\n/*zz*/ LDG\n//## File nope\n.section\n");
        assert!(l.instrs.is_empty());
    }
}
