"""The reader's errors on one real split, by kind (issue 14 round 4's diagnosis).

    .venv/bin/python bench/reader_errors.py [SPLIT] [CLASSIFIER.tflite]

Per set: dice, read right, missed, misread with a good box (IoU >= 0.5 with the label box) or a
poor one (each flagged or silent, and whether the classifier reads the label box itself right),
labelbox_right (the classifier on every label box), boxes on no die, doubled; then one line per error.
Labels are matched as vision.realdata.score_photo matches them.
"""
import sys, collections
from pathlib import Path
import cv2, numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vision.reader import DiceReader
from vision.realdata import SETS, photos
from vision.crops import die_crop
from companion.engine.dice import pip_value

split = sys.argv[1] if len(sys.argv) > 1 else "calib"
model = sys.argv[2] if len(sys.argv) > 2 else None
r = DiceReader(keep_crops=False, **({"model_path": model} if model else {}))
clf = r.classifier
def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0])); iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    i = ix * iy; u = (a[2]-a[0])*(a[3]-a[1]) + (b[2]-b[0])*(b[3]-b[1]) - i
    return i / u if u else 0
for name in SETS:
    C = collections.Counter(); rows = []
    for ph in photos(name, split):
        img = cv2.imread(str(ph.path))
        rd = r.read(img)
        taken = set()
        for face, box in ph.dice:
            C["dice"] += 1
            c = ((box[0]+box[2])/2, (box[1]+box[3])/2)
            hold = [k for k, d in enumerate(rd.dice) if k not in taken and d.box[0] <= c[0] <= d.box[2] and d.box[1] <= c[1] <= d.box[3]]
            # classifier on the label box
            p = clf.probabilities(die_crop(img, box)[None])[0]
            best, prob = clf.faces(p[None])
            lab_face = pip_value(clf.labels[best[0]])
            C["labelbox_right"] += lab_face == face
            if not hold:
                C["missed"] += 1; rows.append((ph.path.name, face, "missed", box)); continue
            k = min(hold, key=lambda j: sum((a-b)**2 for a, b in zip(((rd.dice[j].box[0]+rd.dice[j].box[2])/2, (rd.dice[j].box[1]+rd.dice[j].box[3])/2), c)))
            taken.add(k); d = rd.dice[k]
            if d.face == face:
                C["right"] += 1; continue
            o = iou(d.box, box)
            kind = "misread_boxok" if o >= 0.5 else "misread_boxoff"
            C[kind] += 1
            C[kind + ("_flag" if d.uncertain else "_silent")] += 1
            C[kind + "_labelbox_right"] += lab_face == face
            rows.append((ph.path.name, face, f"{kind} read {d.face} conf {d.confidence:.2f} iou {o:.2f} labelbox->{lab_face}", box))
        spare = [d for k, d in enumerate(rd.dice) if k not in taken]
        for d in spare:
            cc = ((d.box[0]+d.box[2])/2, (d.box[1]+d.box[3])/2)
            if any(b[0] <= cc[0] <= b[2] and b[1] <= cc[1] <= b[3] for _, b in ph.dice):
                C["doubled"] += 1
            else:
                C["no_die"] += 1; rows.append((ph.path.name, None, f"no_die read {d.face} conf {d.confidence:.2f}", d.box))
    print(name, split, dict(C))
    for row in rows: print("  ", row)
