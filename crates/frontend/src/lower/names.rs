//! Tables of CUDA's built-in names: types, and names that mark unsupported
//! features so their diagnostics can say what they are.

use hone_ir::{Scalar, Type};

pub(crate) fn primitive_type(name: &str) -> Option<Type> {
    use Scalar::*;
    let s = match name {
        "void" => return Some(Type::Void),
        "bool" | "_Bool" => Bool,
        "char" | "int8_t" | "signed char" => I8,
        "short" | "int16_t" => I16,
        "int" | "int32_t" => I32,
        "long" | "int64_t" | "ssize_t" | "ptrdiff_t" | "intptr_t" | "clock_t" => I64,
        "uint8_t" => U8,
        "uint16_t" => U16,
        "unsigned" | "uint32_t" => U32,
        "size_t" | "uint64_t" | "uintptr_t" => U64,
        "float" => F32,
        "double" => F64,
        _ => return None,
    };
    Some(Type::Scalar(s))
}

/// Type names that are not keywords: CUDA's vector types, `dim3`, and the
/// usual system typedefs CUDA headers bring in.
pub(crate) fn named_type(name: &str) -> Option<Type> {
    if let Some(t) = primitive_type(name) {
        return Some(t);
    }
    use Scalar::*;
    match name {
        "dim3" => return Some(Type::Vector(U32, 3)),
        "uint" => return Some(Type::Scalar(U32)),
        "ushort" => return Some(Type::Scalar(U16)),
        "uchar" => return Some(Type::Scalar(U8)),
        "ulong" => return Some(Type::Scalar(U64)),
        // The complex types of cuFFT and cuComplex.h are CUDA's vectors.
        "cufftComplex" | "cuComplex" | "cuFloatComplex" => return Some(Type::Vector(F32, 2)),
        "cufftDoubleComplex" | "cuDoubleComplex" => return Some(Type::Vector(F64, 2)),
        "cufftReal" => return Some(Type::Scalar(F32)),
        "cufftDoubleReal" => return Some(Type::Scalar(F64)),
        _ => {}
    }
    let digit = name.chars().last()?;
    let n = digit.to_digit(10)?;
    if !(1..=4).contains(&n) {
        return None;
    }
    let s = vector_scalar(&name[..name.len() - 1])?;
    Some(Type::Vector(s, n as u8))
}

/// Component type of a vector type prefix (`float` of `float4`).
pub(crate) fn vector_scalar(prefix: &str) -> Option<Scalar> {
    use Scalar::*;
    Some(match prefix {
        "char" => I8,
        "uchar" => U8,
        "short" => I16,
        "ushort" => U16,
        "int" => I32,
        "uint" => U32,
        "long" | "longlong" => I64,
        "ulong" | "ulonglong" => U64,
        "float" => F32,
        "double" => F64,
        _ => return None,
    })
}

/// Names of types that exist in CUDA but that hone does not model.
pub(crate) fn unsupported_type(name: &str) -> Option<(&'static str, String)> {
    let texture = "textures and surfaces are not supported";
    Some(match name {
        "cudaTextureObject_t" | "cudaSurfaceObject_t" | "texture" | "surface" => {
            ("texture", texture.to_string())
        }
        "__half" | "half" | "__half2" | "half2" => (
            "half precision",
            format!("`{name}` is declared by <cuda_fp16.h>, which this file does not include"),
        ),
        "__nv_bfloat16" | "nv_bfloat16" | "__nv_bfloat162" | "nv_bfloat162" => (
            "half precision",
            format!("`{name}` is declared by <cuda_bf16.h>, which this file does not include"),
        ),
        "thread_block" | "thread_group" | "grid_group" | "thread_block_tile"
        | "coalesced_group" => (
            "cooperative groups",
            "cooperative groups are not supported".to_string(),
        ),
        _ => return None,
    })
}

pub(crate) fn is_texture_type(name: &str) -> bool {
    matches!(name, "texture" | "surface")
}

pub(crate) fn is_cooperative_groups(text: &str) -> bool {
    text.starts_with("cooperative_groups") || text.starts_with("cg::")
}

/// Functions CUDA provides that hone does not model, with the construct name
/// for the diagnostic.
pub(crate) fn unsupported_function(name: &str) -> Option<&'static str> {
    if name.starts_with("tex")
        && (name.contains("Fetch")
            || name.starts_with("tex1D")
            || name.starts_with("tex2D")
            || name.starts_with("tex3D")
            || name.starts_with("texCubemap"))
        || name.starts_with("surf")
    {
        return Some("texture");
    }
    if matches!(
        name,
        "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" | "__ballot" | "__any" | "__all"
    ) {
        return Some("legacy warp intrinsic");
    }
    if matches!(
        name,
        "malloc"
            | "free"
            | "memcpy"
            | "memset"
            | "cudaMalloc"
            | "cudaFree"
            | "cudaMemcpy"
            | "cudaMemcpyAsync"
            | "cudaDeviceSynchronize"
            | "cudaGetLastError"
    ) {
        return Some("runtime call");
    }
    if matches!(
        name,
        "this_thread_block" | "this_grid" | "tiled_partition" | "coalesced_threads"
    ) {
        return Some("cooperative groups");
    }
    if name == "assert" || name == "__assert_fail" || name == "__brkpt" {
        return Some("assert");
    }
    None
}

/// A value of a limit macro of `<climits>`/`<cfloat>`/`<cmath>`: the
/// preprocessor does not read system headers, so these arrive as names.
pub(crate) enum Constant {
    Int(i128, Scalar),
    Float(f64, Scalar),
}

pub(crate) fn header_constant(name: &str) -> Option<Constant> {
    use Scalar::*;
    Some(match name {
        "CHAR_BIT" => Constant::Int(8, I32),
        "SHRT_MAX" => Constant::Int(i16::MAX as i128, I32),
        "SHRT_MIN" => Constant::Int(i16::MIN as i128, I32),
        "USHRT_MAX" => Constant::Int(u16::MAX as i128, I32),
        "INT_MAX" => Constant::Int(i32::MAX as i128, I32),
        "INT_MIN" => Constant::Int(i32::MIN as i128, I32),
        "UINT_MAX" => Constant::Int(u32::MAX as i128, U32),
        "LLONG_MAX" | "LONG_MAX" => Constant::Int(i64::MAX as i128, I64),
        "LLONG_MIN" | "LONG_MIN" => Constant::Int(i64::MIN as i128, I64),
        "ULLONG_MAX" | "ULONG_MAX" => Constant::Int(u64::MAX as i128, U64),
        "FLT_MAX" => Constant::Float(f32::MAX as f64, F32),
        "FLT_MIN" => Constant::Float(f32::MIN_POSITIVE as f64, F32),
        "FLT_EPSILON" => Constant::Float(f32::EPSILON as f64, F32),
        "DBL_MAX" => Constant::Float(f64::MAX, F64),
        "DBL_MIN" => Constant::Float(f64::MIN_POSITIVE, F64),
        "DBL_EPSILON" => Constant::Float(f64::EPSILON, F64),
        "M_PI" => Constant::Float(std::f64::consts::PI, F64),
        "M_E" => Constant::Float(std::f64::consts::E, F64),
        "M_SQRT2" => Constant::Float(std::f64::consts::SQRT_2, F64),
        // <math_constants.h>, at the precision its literals have.
        "CUDART_PI_F" => Constant::Float(std::f32::consts::PI as f64, F32),
        "CUDART_PIO2_F" => Constant::Float(std::f32::consts::FRAC_PI_2 as f64, F32),
        "CUDART_PIO4_F" => Constant::Float(std::f32::consts::FRAC_PI_4 as f64, F32),
        "CUDART_2_OVER_PI_F" => Constant::Float(std::f32::consts::FRAC_2_PI as f64, F32),
        "CUDART_SQRT_HALF_F" => Constant::Float(std::f32::consts::FRAC_1_SQRT_2 as f64, F32),
        "CUDART_LN2_F" => Constant::Float(std::f32::consts::LN_2 as f64, F32),
        "CUDART_L2E_F" => Constant::Float(std::f32::consts::LOG2_E as f64, F32),
        "CUDART_ZERO_F" => Constant::Float(0.0, F32),
        "CUDART_ONE_F" => Constant::Float(1.0, F32),
        "CUDART_PI" => Constant::Float(std::f64::consts::PI, F64),
        "CUDART_PIO2" => Constant::Float(std::f64::consts::FRAC_PI_2, F64),
        "CUDART_PIO4" => Constant::Float(std::f64::consts::FRAC_PI_4, F64),
        "CUDART_2PI" => Constant::Float(std::f64::consts::TAU, F64),
        "CUDART_SQRT_2PI" => Constant::Float((std::f64::consts::TAU).sqrt(), F64),
        "CUDART_SQRT_HALF" => Constant::Float(std::f64::consts::FRAC_1_SQRT_2, F64),
        "CUDART_LN2" => Constant::Float(std::f64::consts::LN_2, F64),
        _ => return None,
    })
}
