"""PDF/X for ReportLab output: ReportLab writes no OutputIntent, so pikepdf adds one (the press
profile the colours were separated for, named by its characterisation as the ICC registry
names it, e.g. FOGRA39), the PDF/X keys in the document info and the same in XMP, and saves at
the PDF version the variant is based on. Dates are ReportLab's fixed invariant date and the
document ID is derived from the content, so the same input still gives the same bytes."""
from __future__ import annotations

import hashlib
import io
import uuid

import pikepdf
from pikepdf import Name

from ..core.icc import REGISTRY, press
from ..core.reproducible import BUILD_DATE


# ReportLab's invariant mode writes this date; XMP must agree with the document info.
FIXED_DATE = BUILD_DATE.isoformat()
PDFXID = "http://www.npes.org/pdfx/ns/id/"
PDFX = "http://ns.adobe.com/pdfx/1.3/"


def make_pdfx(data: bytes, version: str, pdf_version: str, title: str, *, press_name: str) -> bytes:
    """`version` is the GTS_PDFXVersion (e.g. 'PDF/X-1a:2003', 'PDF/X-4'); `press_name` the
    characterisation the file's CMYK was separated for (generator.core.icc.PRESSES)."""
    condition = press(press_name)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        profile = pdf.make_stream(condition.profile_bytes())
        profile.N = 4
        profile.Alternate = Name.DeviceCMYK
        intent = pikepdf.Dictionary(
            Type=Name.OutputIntent, S=Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(condition.name),
            OutputCondition=pikepdf.String(condition.condition),
            Info=pikepdf.String(condition.description),
            RegistryName=pikepdf.String(REGISTRY),
            DestOutputProfile=profile)
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])
        info = pdf.docinfo
        info.Title = pikepdf.String(title)
        info.GTS_PDFXVersion = pikepdf.String(version)
        if version.startswith("PDF/X-1a"):
            info.GTS_PDFXConformance = pikepdf.String(version)
        info.Trapped = Name("/False")
        document_id = uuid.uuid5(uuid.NAMESPACE_URL, hashlib.sha256(data).hexdigest())
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            meta["dc:title"] = title
            meta["xmp:CreateDate"] = FIXED_DATE
            meta["xmp:ModifyDate"] = FIXED_DATE
            meta["xmp:MetadataDate"] = FIXED_DATE
            meta["xmp:CreatorTool"] = "pnp"
            meta["pdf:Producer"] = str(info.get("/Producer", "pnp"))
            meta["pdf:Trapped"] = "False"
            meta["xmpMM:DocumentID"] = f"uuid:{document_id}"
            meta["xmpMM:VersionID"] = "1"
            meta["xmpMM:RenditionClass"] = "default"
            meta[f"{{{PDFXID}}}GTS_PDFXVersion"] = version
            if version.startswith("PDF/X-1a"):
                meta[f"{{{PDFX}}}GTS_PDFXVersion"] = version
                meta[f"{{{PDFX}}}GTS_PDFXConformance"] = version
        out = io.BytesIO()
        # PDF/X-1a is PDF 1.4: no object or cross-reference streams.
        pdf.save(out, deterministic_id=True, min_version=pdf_version, force_version=pdf_version,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable, compress_streams=True)
        return out.getvalue()
