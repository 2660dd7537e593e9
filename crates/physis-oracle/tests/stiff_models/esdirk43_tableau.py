"""The tableau of the prelude's `esdirk43` (Kennedy & Carpenter, ESDIRK 4(3)6L[2]SA, 2003),
checked in exact rational arithmetic: the main weights (the last row of A, stiffly accurate)
satisfy the eight order-4 conditions, the embedded weights d the order-3 ones, the method is
L-stable (R(z) -> 0 as z -> -inf), and the `error` weights of the prelude are b - d.
Run: python3 esdirk43_tableau.py > esdirk43_tableau.txt (the committed output)."""
from fractions import Fraction as F
A=[[0]*6 for _ in range(6)]
A[1][0]=F(1,4);A[1][1]=F(1,4)
A[2][0]=F(8611,62500);A[2][1]=F(-1743,31250);A[2][2]=F(1,4)
A[3][0]=F(5012029,34652500);A[3][1]=F(-654441,2922500);A[3][2]=F(174375,388108);A[3][3]=F(1,4)
A[4][0]=F(15267082809,155376265600);A[4][1]=F(-71443401,120774400);A[4][2]=F(730878875,902184768);A[4][3]=F(2285395,8070912);A[4][4]=F(1,4)
A[5][0]=F(82889,524892);A[5][2]=F(15625,83664);A[5][3]=F(69875,102672);A[5][4]=F(-2260,8211);A[5][5]=F(1,4)
A=[[F(x) for x in r] for r in A]
b=A[5][:]
d=[F(4586570599,29645900160),F(0),F(178811875,945068544),F(814220225,1159782912),F(-3700637,11593932),F(61727,225920)]
c=[sum(r) for r in A]
print("c",c)
s=6
def dot(u,v): return sum(x*y for x,y in zip(u,v))
def Av(v): return [dot(r,v) for r in A]
def conds(w,p):
    out=[]
    c2=[x*x for x in c];c3=[x**3 for x in c]
    out.append(dot(w,[1]*s)-1)
    if p>=2: out.append(dot(w,c)-F(1,2))
    if p>=3: out+= [dot(w,c2)-F(1,3), dot(w,Av(c))-F(1,6)]
    if p>=4: out+= [dot(w,c3)-F(1,4), dot([w[i]*c[i] for i in range(s)],Av(c))-F(1,8), dot(w,Av(c2))-F(1,12), dot(w,Av(Av(c)))-F(1,24)]
    return out
print("b order4 residuals",[float(x) for x in conds(b,4)])
print("d order3 residuals",[float(x) for x in conds(d,3)])
print("d order4 residuals",[float(x) for x in conds(d,4)])
# stability function at large z via solving (I - zA) K = 1 (lower triangular)
def R(z,w):
    K=[]
    for i in range(s):
        acc=1+z*sum(A[i][j]*K[j] for j in range(i))
        K.append(acc/(1-z*A[i][i]))
    return 1+z*dot(w,K)
for z in [F(-10**6),F(-10**12)]:
    print("R(z)",float(R(z,b)),"Rhat",float(R(z,d)))
print("b-d", [str(x-y) for x,y in zip(b,d)])
